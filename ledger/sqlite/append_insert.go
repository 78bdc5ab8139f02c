package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
)

// insertFresh numbers the new events, writes their segment and inserts the
// rows and indexes them in FTS set-based (one INSERT ... SELECT for the
// batch, far cheaper than per-row triggers). The segment is encoded,
// compressed and fsynced on another goroutine while the rows go in (the two
// are the largest costs of an import and use different cores): the rows
// point to a segment row recorded under a placeholder path, named once the
// segment is written (its name is the hash of its content). The segment is
// durable before this returns, so before the transaction commits.
func (db *DB) insertFresh(ctx context.Context, tx *sql.Tx, wsID, runID string, wsk, last int64, fresh []pending, packed map[string]any, res *ledger.AppendResult) (string, error) {
	now := fromMicro(db.nowMicro())
	recs := make([]durable.Record, len(fresh))
	for i, p := range fresh {
		recs[i] = durable.ToRecord(wsID, runID, last+int64(i)+1, p, now)
	}
	srcs := sourceIDs{}
	if err := placeLate(ctx, tx, wsk, srcs, fresh, recs); err != nil {
		return "", err
	}
	w := db.store.StartSegment(wsID, runID, recs)
	segID, err := insertBatch(ctx, tx, wsk, durable.PendingSegment(wsID, runID), now.UnixMicro(), srcs, fresh, recs, packed)
	rel, created, werr := w.Wait()
	createdPath := ""
	if created {
		createdPath = rel
	}
	if err == nil {
		err = werr
	}
	if err == nil {
		err = nameSegment(ctx, tx, wsk, segID, rel, last)
	}
	if err != nil {
		return createdPath, err
	}
	res.SegmentPath = rel
	res.Added = len(fresh)
	res.LastSequence = last + int64(len(fresh))
	_, err = tx.ExecContext(ctx, sqlBumpWorkstream, now.UnixMicro(), res.LastSequence, len(fresh), wsk)
	return createdPath, err
}

// insertBatch records the segment under path and inserts and indexes the
// rows that point to it; it returns the segment row's id.
func insertBatch(ctx context.Context, tx *sql.Tx, wsk int64, path string, now int64, srcs sourceIDs, fresh []pending, recs []durable.Record, packed map[string]any) (int64, error) {
	segID, err := segmentID(ctx, tx, wsk, path, now)
	if err != nil {
		return 0, err
	}
	return segID, insertRows(ctx, tx, wsk, segID, srcs, fresh, recs, packed)
}

// nameSegment gives the batch's segment row its path rel. When a row
// already has that path (the same events were recorded before and the
// file reused), the batch's events (those after sequence last) move to it
// and the placeholder row goes, exactly as if they had been inserted with
// it.
func nameSegment(ctx context.Context, tx *sql.Tx, wsk, segID int64, rel string, last int64) error {
	var existing int64
	err := tx.QueryRowContext(ctx, sqlSegmentID, rel).Scan(&existing)
	if errors.Is(err, sql.ErrNoRows) {
		_, err = tx.ExecContext(ctx, sqlNameSegment, rel, segID)
		return err
	}
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, sqlMoveBatchSegment, existing, wsk, last); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, sqlDeleteSegment, segID)
	return err
}

// segmentID records a segment (with the creation time its events share)
// and returns its row id.
func segmentID(ctx context.Context, tx *sql.Tx, wsk int64, rel string, createdAt int64) (int64, error) {
	if _, err := tx.ExecContext(ctx, sqlInsertSegment, wsk, rel, createdAt); err != nil {
		return 0, err
	}
	var id int64
	err := tx.QueryRowContext(ctx, sqlSegmentID, rel).Scan(&id)
	return id, err
}

// sourceIDs resolves (harness, native session) pairs to their sources row,
// creating missing ones. It caches within one transaction only, so a rolled
// back insert is never remembered.
type sourceIDs map[[2]string]int64

func (c sourceIDs) get(ctx context.Context, tx *sql.Tx, harness, session string) (int64, error) {
	k := [2]string{harness, session}
	if id, ok := c[k]; ok {
		return id, nil
	}
	var id int64
	err := tx.QueryRowContext(ctx, sqlSourceID, harness, session).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		err = tx.QueryRowContext(ctx, sqlInsertSource, harness, session).Scan(&id)
	}
	if err != nil {
		return 0, fmt.Errorf("record source %s/%s: %w", harness, session, err)
	}
	c[k] = id
	return id, nil
}

// insertRows inserts the events and indexes exactly those rows in FTS: the
// rowids of rows inserted in one write transaction are consecutive from the
// first one, so "rid >= first" selects precisely this batch.
func insertRows(ctx context.Context, tx *sql.Tx, wsk, segID int64, srcs sourceIDs, fresh []pending, recs []durable.Record, packed map[string]any) error {
	stmt, err := tx.PrepareContext(ctx, sqlInsertEvent)
	if err != nil {
		return err
	}
	defer stmt.Close()
	texts := packAll(recs, packed)
	var first int64
	for i, p := range fresh {
		src, err := srcs.get(ctx, tx, p.In.Harness, p.In.NativeSessionID)
		if err != nil {
			return err
		}
		r, err := stmt.ExecContext(ctx, rowArgs(wsk, segID, src, p, recs[i], texts[i])...)
		if err != nil {
			return err
		}
		if i == 0 {
			if first, err = r.LastInsertId(); err != nil {
				return err
			}
		}
	}
	if _, err = tx.ExecContext(ctx, sqlIndexEventsFrom, first); err != nil {
		return err
	}
	return noteNewest(ctx, tx, srcs, fresh)
}

// rowArgs are the sqlInsertEvent arguments; text is the record's capped
// content packed (packAll). The event id is stored only when the stored
// fields do not derive it.
func rowArgs(wsk, segID, src int64, p pending, r durable.Record, text any) []any {
	var occurred, ord sql.NullInt64
	if r.Order > 0 {
		ord = sql.NullInt64{Int64: r.Order, Valid: true}
	}
	if r.OccurredAt != nil {
		occurred = sql.NullInt64{Int64: r.OccurredAt.UnixMicro(), Valid: true}
	}
	content := ledger.CapContent(r.Content)
	row := ledger.EventInput{Harness: r.Harness, NativeSessionID: r.NativeSessionID, SourceRecordID: r.SourceRecordID,
		BlockIndex: r.BlockIndex, Kind: r.Kind, Content: content}
	var id any // NULL: derivable from the stored fields
	switch {
	case p.FromFields && content == r.Content:
		// The id was hashed from exactly these fields: derivable.
	case storedID(row, p.IDRaw) != nil:
		id = p.IDRaw
	}
	return []any{wsk, r.Sequence, idKey(p.IDRaw), id, src, r.SourceRecordID, r.BlockIndex,
		string(r.Kind), r.Role, occurred, metaArg(p), text, segID, ord}
}
