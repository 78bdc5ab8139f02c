package ledger

import (
	"context"
	"database/sql"
	"time"
)

// insertFresh numbers the new events, writes their segment, inserts the rows
// and indexes them in FTS set-based (one INSERT ... SELECT for the batch,
// far cheaper than per-row triggers).
func (db *DB) insertFresh(ctx context.Context, tx *sql.Tx, wsID, runID string, wsk, last int64, fresh []pending, res *AppendResult) (string, error) {
	now := fromMicro(db.nowMicro())
	recs := make([]segmentRecord, len(fresh))
	for i, p := range fresh {
		recs[i] = toRecord(wsID, runID, last+int64(i)+1, p, now)
	}
	data, err := encodeSegment(recs)
	if err != nil {
		return "", err
	}
	rel, created, err := db.writeSegment(wsID, segmentName(runID, data), data)
	if err != nil {
		return "", err
	}
	res.SegmentPath = rel
	createdPath := ""
	if created {
		createdPath = rel
	}
	segID, err := segmentID(ctx, tx, wsk, rel)
	if err != nil {
		return createdPath, err
	}
	if err := insertRows(ctx, tx, wsk, segID, fresh, recs); err != nil {
		return createdPath, err
	}
	res.Added = len(fresh)
	res.LastSequence = last + int64(len(fresh))
	_, err = tx.ExecContext(ctx, sqlBumpWorkstream, now.UnixMicro(), res.LastSequence, len(fresh), wsk)
	return createdPath, err
}

func toRecord(wsID, runID string, seq int64, p pending, now time.Time) segmentRecord {
	r := segmentRecord{V: segmentVersion, WorkstreamID: wsID, RunID: runID, Sequence: seq, EventID: p.id,
		Harness: p.in.Harness, NativeSessionID: p.in.NativeSessionID, SourceRecordID: p.in.SourceRecordID,
		BlockIndex: p.in.BlockIndex, Kind: p.in.Kind, Role: p.in.Role, Metadata: p.in.Metadata,
		Content: p.in.Content, CreatedAt: now}
	if !p.in.OccurredAt.IsZero() {
		t := p.in.OccurredAt
		r.OccurredAt = &t
	}
	return r
}

func segmentID(ctx context.Context, tx *sql.Tx, wsk int64, rel string) (int64, error) {
	if _, err := tx.ExecContext(ctx, sqlInsertSegment, wsk, rel); err != nil {
		return 0, err
	}
	var id int64
	err := tx.QueryRowContext(ctx, sqlSegmentID, rel).Scan(&id)
	return id, err
}

// insertRows inserts the events and indexes exactly those rows in FTS: the
// rowids of rows inserted in one write transaction are consecutive from the
// first one, so "rid >= first" selects precisely this batch.
func insertRows(ctx context.Context, tx *sql.Tx, wsk, segID int64, fresh []pending, recs []segmentRecord) error {
	stmt, err := tx.PrepareContext(ctx, sqlInsertEvent)
	if err != nil {
		return err
	}
	defer stmt.Close()
	var first int64
	for i, p := range fresh {
		r, err := stmt.ExecContext(ctx, rowArgs(wsk, segID, p, recs[i])...)
		if err != nil {
			return err
		}
		if i == 0 {
			if first, err = r.LastInsertId(); err != nil {
				return err
			}
		}
	}
	_, err = tx.ExecContext(ctx, sqlIndexEventsFrom, first)
	return err
}

func rowArgs(wsk, segID int64, p pending, r segmentRecord) []any {
	var occurred sql.NullInt64
	if r.OccurredAt != nil {
		occurred = sql.NullInt64{Int64: r.OccurredAt.UnixMicro(), Valid: true}
	}
	return []any{wsk, r.Sequence, p.idRaw, idKey(p.idRaw), r.Harness, r.NativeSessionID, r.SourceRecordID, r.BlockIndex,
		string(r.Kind), r.Role, occurred, p.meta, capContent(r.Content), segID, r.CreatedAt.UnixMicro()}
}
