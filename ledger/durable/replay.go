package durable

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/ai-memory/ai-memory/ledger"
)

// Loaded is one segment record with the segment it came from.
type Loaded struct {
	Rec Record
	Rel string // relative to the data home
}

// LoadSegments reads every event segment of a workstream (compressed or
// not), in file-name order, and says how many segments it read.
func (s *Store) LoadSegments(wsID string) ([]Loaded, int, error) {
	dir := filepath.Join(s.Root(), wsID)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, 0, fmt.Errorf("rebuild: %w", err)
	}
	var out []Loaded
	n := 0
	for _, e := range ents { // ReadDir sorts by name
		if e.IsDir() || !IsSegmentFile(e.Name()) {
			continue
		}
		n++
		rel := filepath.ToSlash(filepath.Join("segments", wsID, e.Name()))
		if out, err = readSegment(filepath.Join(dir, e.Name()), rel, out); err != nil {
			return nil, 0, err
		}
	}
	return out, n, nil
}

func readSegment(path, rel string, out []Loaded) ([]Loaded, error) {
	data, err := ReadSegmentFile(path)
	if err != nil {
		return nil, fmt.Errorf("rebuild: %w", err)
	}
	for n := 1; len(data) > 0; n++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		rec, ok := DecodeRecord(line)
		if !ok {
			return nil, fmt.Errorf("rebuild: segment %s line %d is not a valid event; move the file aside and retry", rel, n)
		}
		out = append(out, Loaded{Rec: rec, Rel: rel})
	}
	return out, nil
}

// DecodeRecord reads one segment line, deriving an event id the line left
// out (RecordVersion 2); ok is false for a line that is not a valid event.
func DecodeRecord(line []byte) (r Record, ok bool) {
	if json.Unmarshal(line, &r) != nil {
		return r, false
	}
	if r.EventID == "" && r.V >= 2 {
		in := ledger.EventInput{Harness: r.Harness, NativeSessionID: r.NativeSessionID, BlockIndex: r.BlockIndex, Kind: r.Kind}
		r.EventID, r.IDDerived = ledger.DeriveEventID(r.SourceRecordID, in, r.Content), true
	}
	return r, validRecord(r)
}

func validRecord(r Record) bool {
	id, err := hex.DecodeString(r.EventID)
	return err == nil && len(id) == 32 && r.Sequence > 0 && r.Kind.Valid() && r.Harness != ""
}

// OrderForRebuild sorts by sequence (events of known segments, those the
// ledger recorded as committed, first on a tie), drops repeated event ids
// and moves events whose sequence is taken (left by a batch that crashed
// after its segment was written) to the end with fresh sequences.
func OrderForRebuild(recs []Loaded, known map[string]bool, res *ledger.RebuildResult) []Loaded {
	sort.SliceStable(recs, func(i, j int) bool {
		a, b := recs[i], recs[j]
		if a.Rec.Sequence != b.Rec.Sequence {
			return a.Rec.Sequence < b.Rec.Sequence
		}
		return known[a.Rel] && !known[b.Rel]
	})
	seen := make(map[string]bool, len(recs))
	out := recs[:0:0]
	var collided []Loaded
	var last int64
	for _, l := range recs {
		switch {
		case seen[l.Rec.EventID]:
			res.Duplicates++
			continue
		case l.Rec.Sequence <= last:
			collided = append(collided, l)
		default:
			out = append(out, l)
			last = l.Rec.Sequence
		}
		seen[l.Rec.EventID] = true
	}
	for _, l := range collided {
		last++
		l.Rec.Sequence = last
		out = append(out, l)
		res.Renumbered++
	}
	return out
}
