package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/ai-memory/ai-memory/ledger"
)

// loaded is one segment record with the segment it came from.
type loaded struct {
	rec segmentRecord
	rel string
}

// Rebuild replaces the events table and the FTS index with the contents of
// the segments on disk, restoring the same event ids, sequences and content,
// in one transaction. Workstreams, runs and links the ledger has are kept;
// a workstream it does not know (the ledger file was lost) is recreated
// from its newest state snapshot, so the segments alone rebuild everything.
func (db *DB) Rebuild(ctx context.Context) (ledger.RebuildResult, error) {
	var res ledger.RebuildResult
	root := filepath.Join(db.home, "segments")
	dirs, err := os.ReadDir(root)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return res, fmt.Errorf("rebuild: read %s: %w", root, err)
	}
	err = db.withTx(ctx, func(tx *sql.Tx) error {
		known, err := knownSegments(ctx, tx)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, sqlRebuildReset); err != nil {
			return err
		}
		for _, d := range dirs {
			if d.IsDir() {
				if err := db.rebuildWorkstream(ctx, tx, d.Name(), known, &res); err != nil {
					return err
				}
			}
		}
		if _, err := tx.ExecContext(ctx, sqlRecomputeNewest); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, sqlFTSRebuild)
		return err
	})
	return res, db.wrap(err, "rebuild ledger")
}

// knownSegments returns the segments the ledger recorded as committed; on a
// sequence collision their events win over those of an orphan segment.
func knownSegments(ctx context.Context, tx *sql.Tx) (map[string]bool, error) {
	rows, err := tx.QueryContext(ctx, sqlSegmentPaths)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	known := map[string]bool{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		known[p] = true
	}
	return known, rows.Err()
}

func (db *DB) rebuildWorkstream(ctx context.Context, tx *sql.Tx, wsID string, known map[string]bool, res *ledger.RebuildResult) error {
	recs, nseg, err := db.loadSegments(wsID)
	if err != nil {
		return err
	}
	var wsk int64
	restored := false
	err = tx.QueryRowContext(ctx, sqlWorkstreamKey, wsID).Scan(&wsk)
	if errors.Is(err, sql.ErrNoRows) {
		if restored, err = db.restoreWorkstream(ctx, tx, wsID, res); err == nil && !restored {
			res.OrphanSegments += nseg
			return nil
		}
		if err == nil {
			err = tx.QueryRowContext(ctx, sqlWorkstreamKey, wsID).Scan(&wsk)
		}
	}
	if err != nil {
		return err
	}
	res.Workstreams++
	res.Segments += nseg
	recs = orderForRebuild(recs, known, res)
	if err := insertLoaded(ctx, tx, wsk, recs); err != nil {
		return err
	}
	res.Events += len(recs)
	var last int64
	if len(recs) > 0 {
		last = recs[len(recs)-1].rec.Sequence
	}
	if _, err = tx.ExecContext(ctx, sqlRestoreCounters, last, len(recs), wsk); err == nil && restored {
		_, err = tx.ExecContext(ctx, sqlRestoreUpdatedAt, wsk)
	}
	return err
}

// orderForRebuild sorts by sequence (events of known segments first on a
// tie), drops repeated event ids and moves events whose sequence is taken to
// the end with fresh sequences.
func orderForRebuild(recs []loaded, known map[string]bool, res *ledger.RebuildResult) []loaded {
	sort.SliceStable(recs, func(i, j int) bool {
		a, b := recs[i], recs[j]
		if a.rec.Sequence != b.rec.Sequence {
			return a.rec.Sequence < b.rec.Sequence
		}
		return known[a.rel] && !known[b.rel]
	})
	seen := make(map[string]bool, len(recs))
	out := recs[:0:0]
	var collided []loaded
	var last int64
	for _, l := range recs {
		switch {
		case seen[l.rec.EventID]:
			res.Duplicates++
			continue
		case l.rec.Sequence <= last:
			collided = append(collided, l)
		default:
			out = append(out, l)
			last = l.rec.Sequence
		}
		seen[l.rec.EventID] = true
	}
	for _, l := range collided {
		last++
		l.rec.Sequence = last
		out = append(out, l)
		res.Renumbered++
	}
	return out
}

// loadSegments reads every event segment of a workstream (compressed or
// not), in file-name order.
func (db *DB) loadSegments(wsID string) ([]loaded, int, error) {
	dir := filepath.Join(db.home, "segments", wsID)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, 0, fmt.Errorf("rebuild: %w", err)
	}
	var out []loaded
	n := 0
	for _, e := range ents { // ReadDir sorts by name
		if e.IsDir() || !isSegmentFile(e.Name()) {
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

func readSegment(path, rel string, out []loaded) ([]loaded, error) {
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
		var rec segmentRecord
		if jerr := json.Unmarshal(line, &rec); jerr != nil || !validRecord(rec) {
			return nil, fmt.Errorf("rebuild: segment %s line %d is not a valid event; move the file aside and retry", rel, n)
		}
		out = append(out, loaded{rec: rec, rel: rel})
	}
	return out, nil
}

func validRecord(r segmentRecord) bool {
	id, err := hex.DecodeString(r.EventID)
	return err == nil && len(id) == 32 && r.Sequence > 0 && r.Kind.Valid() && r.Harness != ""
}

// insertLoaded inserts restored rows; the FTS index is rebuilt afterwards in
// one pass. A segment's creation time is that of its first record (one
// Append writes one segment with one timestamp).
func insertLoaded(ctx context.Context, tx *sql.Tx, wsk int64, recs []loaded) error {
	stmt, err := tx.PrepareContext(ctx, sqlInsertEvent)
	if err != nil {
		return err
	}
	defer stmt.Close()
	segIDs := map[string]int64{}
	srcs := sourceIDs{}
	for _, l := range recs {
		segID, ok := segIDs[l.rel]
		if !ok {
			if segID, err = segmentID(ctx, tx, wsk, l.rel, l.rec.CreatedAt.UnixMicro()); err != nil {
				return err
			}
			segIDs[l.rel] = segID
		}
		src, err := srcs.get(ctx, tx, l.rec.Harness, l.rec.NativeSessionID)
		if err != nil {
			return err
		}
		p, err := newPending(ledger.EventInput{Metadata: l.rec.Metadata})
		if err != nil {
			return err
		}
		p.id, p.fromFields = l.rec.EventID, false // the segment's id, verified by rowArgs
		p.idRaw, _ = hex.DecodeString(p.id)
		if _, err := stmt.ExecContext(ctx, rowArgs(wsk, segID, src, p, l.rec)...); err != nil {
			return err
		}
	}
	return nil
}
