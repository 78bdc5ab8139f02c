package durable

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ai-memory/ai-memory/ledger"
)

// Pending is an event ready to store.
type Pending struct {
	In    ledger.EventInput // sanitized, full content
	ID    string            // hex event id
	IDRaw []byte
	// Meta is In.Metadata as JSON, nil when there is none.
	Meta []byte
	// FromFields is set when ID was computed from In (not read from a
	// segment), so a backend can skip re-hashing to prove it derivable.
	FromFields bool
	// Ord is the sequence this late event is shown before (0: its own).
	Ord int64
}

// PrepareBatch validates, redacts and ids the events, dropping blank ones
// (counted in Dropped) and duplicates inside the batch (in Skipped). Every
// backend prepares a batch this way, so the same input stores the same
// events with the same ids everywhere.
func PrepareBatch(in []ledger.EventInput) ([]Pending, ledger.AppendResult, error) {
	var res ledger.AppendResult
	seen := make(map[string]bool, len(in))
	out := make([]Pending, 0, len(in))
	for i, e := range in {
		if strings.TrimSpace(e.Harness) == "" || !e.Kind.Valid() {
			return nil, res, fmt.Errorf("append: event %d has an empty harness or unknown kind %q", i, e.Kind)
		}
		s, err := ledger.Sanitize(e)
		if err != nil {
			return nil, res, fmt.Errorf("append: event %d: %w", i, err)
		}
		if strings.TrimSpace(s.Content) == "" {
			res.Dropped++
			continue
		}
		p, err := NewPending(s)
		if err != nil {
			return nil, res, fmt.Errorf("append: event %d: %w", i, err)
		}
		if seen[p.ID] {
			res.Skipped++
			continue
		}
		seen[p.ID] = true
		out = append(out, p)
	}
	return out, res, nil
}

// NewPending ids a sanitized event and encodes its metadata.
func NewPending(s ledger.EventInput) (Pending, error) {
	p := Pending{In: s, ID: ledger.DeriveEventID(s.SourceRecordID, s, s.Content), FromFields: true}
	p.IDRaw, _ = hex.DecodeString(p.ID)
	if s.Metadata != nil {
		b, err := json.Marshal(s.Metadata)
		if err != nil {
			return p, fmt.Errorf("encode metadata: %w", err)
		}
		p.Meta = b
	}
	return p, nil
}

// FromRecord is the pending form of a segment record being replayed: its
// id is the segment's, not recomputed (FromFields false).
func FromRecord(r Record) (Pending, error) {
	p, err := NewPending(ledger.EventInput{Metadata: r.Metadata})
	if err != nil {
		return p, err
	}
	p.ID, p.FromFields = r.EventID, false
	p.IDRaw, _ = hex.DecodeString(p.ID)
	return p, nil
}
