package postgres

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
)

// Rebuild replays this data home's segments into the shared ledger, in one
// transaction. Unlike the SQLite backend it never deletes: the server holds
// other machines' events too, which this home has no segments of. An event
// already stored (same id) is kept as it is; a missing one is inserted with
// its recorded sequence, or after the workstream's last one when that
// sequence now holds another event (counted in Renumbered). A workstream
// the server does not know is recreated from its newest state snapshot.
// So after a server restored from an older backup, every machine's Rebuild
// puts back what it wrote since.
func (db *DB) Rebuild(ctx context.Context) (ledger.RebuildResult, error) {
	var res ledger.RebuildResult
	dirs, err := db.store.WorkstreamDirs()
	if err != nil {
		return res, err
	}
	err = db.withTx(ctx, func(t *tx) error {
		res = ledger.RebuildResult{}
		for _, d := range dirs {
			if err := db.rebuildWorkstream(ctx, t, d, &res); err != nil {
				return err
			}
		}
		return nil
	})
	return res, db.wrap(err, "rebuild ledger")
}

func (db *DB) rebuildWorkstream(ctx context.Context, t *tx, wsID string, res *ledger.RebuildResult) error {
	recs, nseg, err := db.store.LoadSegments(wsID)
	if err != nil {
		return err
	}
	restored := false
	wsk, last, err := lockWorkstream(ctx, t, wsID)
	if errors.Is(err, ledger.ErrNotFound) {
		if restored, err = db.restoreWorkstream(ctx, t, wsID, res); err == nil && !restored {
			res.OrphanSegments += nseg
			return nil
		}
		if err == nil {
			wsk, last, err = lockWorkstream(ctx, t, wsID)
		}
	}
	if err != nil {
		return err
	}
	res.Workstreams++
	res.Segments += nseg
	known, err := stringSet(ctx, t, sqlKnownSegments, wsk)
	if err != nil {
		return err
	}
	recs = durable.OrderForRebuild(recs, known, res)
	res.Events += len(recs)
	missing, err := missingRecords(ctx, t, wsk, last, recs, res)
	if err != nil || len(missing) == 0 {
		return err
	}
	if err := insertLoaded(ctx, t, wsk, missing); err != nil {
		return err
	}
	if _, err := t.Exec(ctx, sqlRecountEvents, wsk); err != nil {
		return err
	}
	if restored {
		_, err = t.Exec(ctx, sqlRestoreUpdatedAt, wsk)
	}
	return err
}

// missingRecords keeps the records whose event the ledger lacks, moving
// those whose sequence another event holds after the last one.
func missingRecords(ctx context.Context, t *tx, wsk, last int64, recs []durable.Loaded, res *ledger.RebuildResult) ([]durable.Loaded, error) {
	rows, err := t.Query(ctx, sqlStoredSeqIDs, wsk)
	if err != nil {
		return nil, err
	}
	taken := map[int64]bool{}
	have := map[string]bool{}
	for rows.Next() {
		var seq int64
		var id []byte
		if err := rows.Scan(&seq, &id); err != nil {
			rows.Close()
			return nil, err
		}
		taken[seq], have[hex.EncodeToString(id)] = true, true
		last = max(last, seq)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, l := range recs {
		last = max(last, l.Rec.Sequence)
	}
	var out []durable.Loaded
	for _, l := range recs {
		if have[l.Rec.EventID] {
			continue
		}
		if taken[l.Rec.Sequence] {
			last++
			l.Rec.Sequence = last
			res.Renumbered++
		}
		taken[l.Rec.Sequence] = true
		out = append(out, l)
	}
	return out, nil
}

// insertLoaded inserts replayed records, recording their segments (a
// segment's creation time is that of its first record).
func insertLoaded(ctx context.Context, t *tx, wsk int64, recs []durable.Loaded) error {
	segIDs := map[string]int64{}
	rs := make([]durable.Record, len(recs))
	metas := make([][]byte, len(recs))
	segs := make([]int64, len(recs))
	for i, l := range recs {
		id, ok := segIDs[l.Rel]
		if !ok {
			var err error
			if id, err = segmentID(ctx, t, wsk, l.Rel, l.Rec.CreatedAt.UnixMicro()); err != nil {
				return err
			}
			segIDs[l.Rel] = id
		}
		rs[i], segs[i] = l.Rec, id
		if l.Rec.Metadata != nil {
			b, err := json.Marshal(l.Rec.Metadata)
			if err != nil {
				return fmt.Errorf("encode metadata: %w", err)
			}
			metas[i] = b
		}
	}
	_, err := insertRecords(ctx, t, wsk, sourceIDs{}, rs, metas, segs, nil)
	return err
}

func stringSet(ctx context.Context, t *tx, query string, args ...any) (map[string]bool, error) {
	rows, err := t.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out[s] = true
	}
	return out, rows.Err()
}
