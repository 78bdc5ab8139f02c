package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
)

// Rebuild replaces the events table and the FTS index with the contents of
// the segments on disk, restoring the same event ids, sequences and content,
// in one transaction. Workstreams, runs and links the ledger has are kept;
// a workstream it does not know (the ledger file was lost) is recreated
// from its newest state snapshot, so the segments alone rebuild everything.
func (db *DB) Rebuild(ctx context.Context) (ledger.RebuildResult, error) {
	var res ledger.RebuildResult
	dirs, err := db.store.WorkstreamDirs()
	if err != nil {
		return res, err
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
			if err := db.rebuildWorkstream(ctx, tx, d, known, &res); err != nil {
				return err
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
	recs, nseg, err := db.store.LoadSegments(wsID)
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
	recs = durable.OrderForRebuild(recs, known, res)
	if err := insertLoaded(ctx, tx, wsk, recs); err != nil {
		return err
	}
	res.Events += len(recs)
	var last int64
	if len(recs) > 0 {
		last = recs[len(recs)-1].Rec.Sequence
	}
	if _, err = tx.ExecContext(ctx, sqlRestoreCounters, last, len(recs), wsk); err == nil && restored {
		_, err = tx.ExecContext(ctx, sqlRestoreUpdatedAt, wsk)
	}
	return err
}

// insertLoaded inserts restored rows; the FTS index is rebuilt afterwards in
// one pass. A segment's creation time is that of its first record (one
// Append writes one segment with one timestamp).
func insertLoaded(ctx context.Context, tx *sql.Tx, wsk int64, recs []durable.Loaded) error {
	stmt, err := tx.PrepareContext(ctx, sqlInsertEvent)
	if err != nil {
		return err
	}
	defer stmt.Close()
	segIDs := map[string]int64{}
	srcs := sourceIDs{}
	for _, l := range recs {
		segID, ok := segIDs[l.Rel]
		if !ok {
			if segID, err = segmentID(ctx, tx, wsk, l.Rel, l.Rec.CreatedAt.UnixMicro()); err != nil {
				return err
			}
			segIDs[l.Rel] = segID
		}
		src, err := srcs.get(ctx, tx, l.Rec.Harness, l.Rec.NativeSessionID)
		if err != nil {
			return err
		}
		p, err := durable.FromRecord(l.Rec) // the segment's id, verified by rowArgs
		if err != nil {
			return err
		}
		if _, err := stmt.ExecContext(ctx, rowArgs(wsk, segID, src, p, l.Rec, packText(ledger.CapContent(l.Rec.Content)))...); err != nil {
			return err
		}
	}
	return nil
}
