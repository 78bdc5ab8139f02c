package postgres

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/ai-memory/ai-memory/ledger"
)

// LatestSequence returns the workstream's highest event sequence (0 if none).
func (db *DB) LatestSequence(ctx context.Context, wsID string) (int64, error) {
	var wsk, last int64
	err := db.pool.QueryRow(ctx, sqlWorkstreamCounters, wsID).Scan(&wsk, &last)
	return last, db.notFound(err, wsID, "read latest sequence")
}

// CountEvents returns how many events the workstream holds.
func (db *DB) CountEvents(ctx context.Context, wsID string) (int64, error) {
	var n int64
	err := db.pool.QueryRow(ctx, sqlEventCount, wsID).Scan(&n)
	return n, db.notFound(err, wsID, "count events")
}

// EventsInRange returns the newest limit events with after < sequence <=
// through, in conversation order. limit <= 0 means no limit.
func (db *DB) EventsInRange(ctx context.Context, wsID string, after, through int64, limit int) ([]ledger.Event, error) {
	wsk, err := db.wsKey(ctx, wsID)
	if err != nil {
		return nil, err
	}
	evs, err := db.queryEvents(ctx, wsID, sqlEventsInRange, wsk, after, through, limitArg(limit))
	ledger.SortConversation(evs)
	return evs, err
}

// EventsAfter returns up to limit events with after < sequence <= through,
// oldest first (limit <= 0: all).
func (db *DB) EventsAfter(ctx context.Context, wsID string, after, through int64, limit int) ([]ledger.Event, error) {
	wsk, err := db.wsKey(ctx, wsID)
	if err != nil {
		return nil, err
	}
	return db.queryEvents(ctx, wsID, sqlEventsAscending, wsk, after, through, limitArg(limit))
}

// LatestEvent returns the workstream's newest event of that kind.
func (db *DB) LatestEvent(ctx context.Context, wsID string, kind ledger.Kind) (ledger.Event, bool, error) {
	wsk, err := db.wsKey(ctx, wsID)
	if err != nil {
		return ledger.Event{}, false, err
	}
	evs, err := db.queryEvents(ctx, wsID, sqlLatestOfKind, wsk, string(kind))
	if err != nil || len(evs) == 0 {
		return ledger.Event{}, false, err
	}
	return evs[0], true, nil
}

// FirstEvent returns the first event of kind and role with from <= sequence
// <= through.
func (db *DB) FirstEvent(ctx context.Context, wsID string, from, through int64, kind ledger.Kind, role string) (ledger.Event, bool, error) {
	wsk, err := db.wsKey(ctx, wsID)
	if err != nil {
		return ledger.Event{}, false, err
	}
	evs, err := db.queryEvents(ctx, wsID, sqlFirstOfKindRole, wsk, from, through, string(kind), role)
	if err != nil || len(evs) == 0 {
		return ledger.Event{}, false, err
	}
	return evs[0], true, nil
}

// limitArg is a LIMIT argument: NULL (no limit) for limit <= 0.
func limitArg(limit int) *int {
	if limit <= 0 {
		return nil
	}
	return &limit
}

func (db *DB) wsKey(ctx context.Context, wsID string) (int64, error) {
	var wsk int64
	err := db.pool.QueryRow(ctx, sqlWorkstreamKey, wsID).Scan(&wsk)
	return wsk, db.notFound(err, wsID, "read workstream")
}

// queryEvents runs a query selecting eventColumns.
func (db *DB) queryEvents(ctx context.Context, wsID, query string, args ...any) ([]ledger.Event, error) {
	rows, err := db.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, db.wrap(err, "read events")
	}
	defer rows.Close()
	var out []ledger.Event
	for rows.Next() {
		e, err := scanEvent(rows, wsID)
		if err != nil {
			return nil, db.wrap(err, "read events")
		}
		out = append(out, e)
	}
	return out, db.wrap(rows.Err(), "read events")
}

func scanEvent(r rowScanner, wsID string) (ledger.Event, error) {
	e := ledger.Event{WorkstreamID: wsID}
	var id []byte
	var kind string
	var occurred *int64
	var meta *string
	var created int64
	err := r.Scan(&e.Sequence, &e.Order, &id, &e.Harness, &e.NativeSessionID, &e.SourceRecordID, &e.BlockIndex,
		&kind, &e.Role, &occurred, &meta, &e.Content, &e.SegmentPath, &created)
	if err != nil {
		return e, err
	}
	e.Kind, e.CreatedAt, e.EventID = ledger.Kind(kind), fromMicro(created), hex.EncodeToString(id)
	if occurred != nil {
		e.OccurredAt = fromMicro(*occurred)
	}
	if meta != nil {
		if err := json.Unmarshal([]byte(*meta), &e.Metadata); err != nil {
			return e, fmt.Errorf("decode metadata of event %d: %w", e.Sequence, err)
		}
	}
	return e, nil
}
