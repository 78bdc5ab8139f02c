package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"strings"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
	"github.com/ai-memory/ai-memory/ledger/internal/prep"
)

// Append adds a batch atomically and idempotently: events are redacted and
// given deterministic ids; ids already stored are skipped without touching
// the FTS index; the new events go to an immutable JSONL segment first and
// then, in one transaction, into the events table and the FTS index, with
// the cursor and the workstream's counters. A replay adds nothing.
func (db *DB) Append(ctx context.Context, b ledger.Batch) (ledger.AppendResult, error) {
	runID, err := durable.RunIDOf(b)
	if err != nil {
		return ledger.AppendResult{}, err
	}
	pre := prep.Of(backendName, b)
	if pre.Err != nil {
		return ledger.AppendResult{}, pre.Err
	}
	evs, res := pre.Events, pre.Result
	var createdSeg string
	err = db.withStateTx(ctx, func(tx *sql.Tx) (string, error) {
		var err error
		createdSeg, err = db.appendTx(ctx, tx, b, runID, evs, pre.Encoded, &res)
		return durable.StateOfBatch(b), err
	})
	if err != nil {
		db.store.Remove(createdSeg)
	}
	if err != nil {
		return ledger.AppendResult{}, db.wrap(err, "append events")
	}
	return res, nil
}

var _ ledger.Preparer = (*DB)(nil)

// Prepare implements ledger.Preparer: the events redacted and identified,
// their texts packed, on all cores.
func (db *DB) Prepare(b ledger.Batch) ledger.Batch {
	return prep.Batch(backendName, b, func(p durable.Pending) any { return packText(ledger.CapContent(p.In.Content)) })
}

// pending is an event ready to insert.
type pending = durable.Pending

// metaArg is the metadata column of p: JSON text or NULL.
func metaArg(p pending) sql.NullString {
	return sql.NullString{String: string(p.Meta), Valid: p.Meta != nil}
}

// appendTx is the transactional part of Append. It returns the path of a
// segment it created (for removal if the transaction fails).
func (db *DB) appendTx(ctx context.Context, tx *sql.Tx, b ledger.Batch, runID string, evs []pending, packed map[string]any, res *ledger.AppendResult) (string, error) {
	wsk, last, err := workstreamCounters(ctx, tx, b.WorkstreamID)
	if err != nil {
		return "", err
	}
	fresh, err := filterPresent(ctx, tx, wsk, evs)
	if err != nil {
		return "", err
	}
	res.Skipped += len(evs) - len(fresh)
	res.LastSequence = last
	created := ""
	if len(fresh) > 0 {
		if created, err = db.insertFresh(ctx, tx, b.WorkstreamID, runID, wsk, last, fresh, packed, res); err != nil {
			return created, err
		}
	}
	if c := b.Cursor; c != nil {
		_, err = tx.ExecContext(ctx, sqlSetSourceCursor, b.WorkstreamID, c.Harness, c.NativeSessionID, c.SourceCursor, db.nowMicro(), db.machine)
	}
	return created, err
}

func workstreamCounters(ctx context.Context, tx *sql.Tx, wsID string) (wsk, last int64, err error) {
	err = tx.QueryRowContext(ctx, sqlWorkstreamCounters, wsID).Scan(&wsk, &last)
	if errors.Is(err, sql.ErrNoRows) {
		err = ledger.Errorf(ledger.ErrNotFound, "workstream %s does not exist; list them with `ai-memory workstreams`", wsID)
	}
	return wsk, last, err
}

// filterPresent drops events whose id is already stored for the workstream.
// A stored event is looked up by its occurrence time and id key (the dedupe
// index's order; see migrations/0003): timed events within the time range of
// their chunk, untimed ones among the untimed.
func filterPresent(ctx context.Context, tx *sql.Tx, wsk int64, evs []pending) ([]pending, error) {
	present := make(map[string]bool)
	var timed, untimed []pending
	for _, p := range evs {
		if p.In.OccurredAt.IsZero() {
			untimed = append(untimed, p)
		} else {
			timed = append(timed, p)
		}
	}
	const chunk = 500
	for _, group := range [][]pending{timed, untimed} {
		for i := 0; i < len(group); i += chunk {
			q, args := presentQuery(wsk, group[i:min(i+chunk, len(group))])
			if err := collectIDs(ctx, tx, q, args, present); err != nil {
				return nil, err
			}
		}
	}
	out := evs[:0:0]
	for _, p := range evs {
		if !present[p.ID] {
			out = append(out, p)
		}
	}
	return out, nil
}

// presentQuery is the lookup of part, which is all timed or all untimed.
func presentQuery(wsk int64, part []pending) (string, []any) {
	args := make([]any, 0, len(part)+3)
	q := sqlPresentUntimedPrefix
	args = append(args, wsk)
	if t := part[0].In.OccurredAt; !t.IsZero() {
		lo, hi := t.UnixMicro(), t.UnixMicro()
		for _, p := range part[1:] {
			lo, hi = min(lo, p.In.OccurredAt.UnixMicro()), max(hi, p.In.OccurredAt.UnixMicro())
		}
		q = sqlPresentTimedPrefix
		args = append(args, lo, hi)
	}
	for _, p := range part {
		args = append(args, idKey(p.IDRaw))
	}
	return q + strings.Repeat(",?", len(part))[1:] + ")", args
}

// idKey is the first 8 bytes of an event id as an integer.
func idKey(id []byte) int64 { return int64(binary.BigEndian.Uint64(id[:8])) }

func collectIDs(ctx context.Context, tx *sql.Tx, q string, args []any, into map[string]bool) error {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id []byte
		var row ledger.EventInput
		var kind string
		if err := rows.Scan(&id, &row.Harness, &row.NativeSessionID, &row.SourceRecordID, &row.BlockIndex, &kind, textScanner{&row.Content}); err != nil {
			return err
		}
		row.Kind = ledger.Kind(kind)
		into[storedOrDerivedID(id, row)] = true
	}
	return rows.Err()
}
