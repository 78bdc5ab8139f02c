package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ai-memory/ai-memory/ledger"
)

// LatestSequence returns the workstream's highest event sequence (0 if none).
func (db *DB) LatestSequence(ctx context.Context, wsID string) (int64, error) {
	var wsk, last int64
	err := db.sql.QueryRowContext(ctx, sqlWorkstreamCounters, wsID).Scan(&wsk, &last)
	return last, db.notFound(err, wsID, "read latest sequence")
}

// CountEvents returns how many events the workstream holds.
func (db *DB) CountEvents(ctx context.Context, wsID string) (int64, error) {
	var n int64
	err := db.sql.QueryRowContext(ctx, sqlEventCount, wsID).Scan(&n)
	return n, db.notFound(err, wsID, "count events")
}

// EventsInRange returns the newest limit events with after < sequence <=
// through (the unseen range of a handoff packet), in conversation order
// (SortConversation). limit <= 0 means no limit.
func (db *DB) EventsInRange(ctx context.Context, wsID string, after, through int64, limit int) ([]ledger.Event, error) {
	wsk, err := db.wsKey(ctx, wsID)
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = -1
	}
	evs, err := db.queryEvents(ctx, wsID, sqlEventsInRange, wsk, after, through, limit)
	ledger.SortConversation(evs)
	return evs, err
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

func (db *DB) wsKey(ctx context.Context, wsID string) (int64, error) {
	var wsk int64
	err := db.sql.QueryRowContext(ctx, sqlWorkstreamKey, wsID).Scan(&wsk)
	return wsk, db.notFound(err, wsID, "read workstream")
}

func (db *DB) notFound(err error, wsID, op string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ledger.Errorf(ledger.ErrNotFound, "workstream %s does not exist; list them with `ai-memory workstreams`", wsID)
	}
	return db.wrap(err, op)
}

// querier runs queries: the pool (*sql.DB), a transaction or one connection.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// queryStrings runs a query that selects one text column and returns its
// values in row order.
func queryStrings(ctx context.Context, q querier, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// queryEvents runs a query selecting eventColumns.
func (db *DB) queryEvents(ctx context.Context, wsID, query string, args ...any) ([]ledger.Event, error) {
	out, _, err := db.queryEventRows(ctx, db.sql, wsID, false, query, args...)
	return out, err
}

// queryEventRows is queryEvents on q that also returns each event's storage
// row id when withRids is set (search places its ranked rows by them).
func (db *DB) queryEventRows(ctx context.Context, q querier, wsID string, withRids bool, query string, args ...any) ([]ledger.Event, []int64, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, nil, db.wrap(err, "read events")
	}
	defer rows.Close()
	var out []ledger.Event
	var rids []int64
	for rows.Next() {
		var rid int64
		e, err := scanEvent(rows, wsID, &rid)
		if err != nil {
			return nil, nil, db.wrap(err, "read events")
		}
		out = append(out, e)
		if withRids {
			rids = append(rids, rid)
		}
	}
	return out, rids, db.wrap(rows.Err(), "read events")
}

const eventColumns = `e.rid, e.sequence, COALESCE(e.ord, e.sequence), e.event_id, src.harness, src.native_session_id, e.source_record_id, e.block_index,
  e.kind, e.role, e.occurred_at, e.metadata, e.content, s.path, s.created_at`

func scanEvent(r rowScanner, wsID string, rid *int64) (ledger.Event, error) {
	e := ledger.Event{WorkstreamID: wsID}
	var id []byte
	var kind string
	var occurred sql.NullInt64
	var meta sql.NullString
	var created int64
	err := r.Scan(rid, &e.Sequence, &e.Order, &id, &e.Harness, &e.NativeSessionID, &e.SourceRecordID, &e.BlockIndex,
		&kind, &e.Role, &occurred, &meta, textScanner{&e.Content}, &e.SegmentPath, &created)
	if err != nil {
		return e, err
	}
	e.Kind, e.CreatedAt = ledger.Kind(kind), fromMicro(created)
	e.EventID = storedOrDerivedID(id, e.EventInput)
	if occurred.Valid {
		e.OccurredAt = fromMicro(occurred.Int64)
	}
	if meta.Valid {
		if err := json.Unmarshal([]byte(meta.String), &e.Metadata); err != nil {
			return e, fmt.Errorf("decode metadata of event %d: %w", e.Sequence, err)
		}
	}
	return e, nil
}
