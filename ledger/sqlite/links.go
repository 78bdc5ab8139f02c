package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/ai-memory/ai-memory/ledger"
)

// LinkSession makes nativeID the current session of (workstream, harness,
// this machine), demoting the previous current one of this machine. A
// known id keeps its cursors.
func (db *DB) LinkSession(ctx context.Context, wsID, harness, nativeID string) (ledger.Link, error) {
	if strings.TrimSpace(harness) == "" || strings.TrimSpace(nativeID) == "" {
		return ledger.Link{}, errors.New("link session: empty harness or native session id")
	}
	var l ledger.Link
	err := db.withStateTx(ctx, func(tx *sql.Tx) (string, error) {
		if err := requireWorkstream(ctx, tx, wsID); err != nil {
			return "", err
		}
		now := db.nowMicro()
		if _, err := tx.ExecContext(ctx, sqlDemoteLinks, now, wsID, harness, nativeID, db.machine); err != nil {
			return "", err
		}
		if _, err := tx.ExecContext(ctx, sqlUpsertCurrentLink, wsID, harness, nativeID, now, db.machine); err != nil {
			return "", err
		}
		var err error
		l, err = scanLink(tx.QueryRowContext(ctx, sqlLink, wsID, harness, nativeID, db.machine))
		return wsID, err
	})
	return l, db.wrap(err, "link session")
}

// CurrentLink returns the current session link of (workstream, harness,
// this machine).
func (db *DB) CurrentLink(ctx context.Context, wsID, harness string) (ledger.Link, bool, error) {
	return db.oneLink(ctx, "read current link", sqlCurrentLink, wsID, harness, db.machine)
}

// SessionLink returns this machine's link of that exact session, current
// or not.
func (db *DB) SessionLink(ctx context.Context, wsID, harness, nativeID string) (ledger.Link, bool, error) {
	return db.oneLink(ctx, "read session link", sqlLink, wsID, harness, nativeID, db.machine)
}

func (db *DB) oneLink(ctx context.Context, op, query string, args ...any) (ledger.Link, bool, error) {
	l, err := scanLink(db.sql.QueryRowContext(ctx, query, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return ledger.Link{}, false, nil
	}
	if err != nil {
		return ledger.Link{}, false, db.wrap(err, op)
	}
	return l, true, nil
}

// Links lists the workstream's links of every machine: current ones
// first, then by most recent update.
func (db *DB) Links(ctx context.Context, wsID string) ([]ledger.Link, error) {
	rows, err := db.sql.QueryContext(ctx, sqlLinksOf, wsID)
	if err != nil {
		return nil, db.wrap(err, "list links")
	}
	defer rows.Close()
	var out []ledger.Link
	for rows.Next() {
		l, err := scanLink(rows)
		if err != nil {
			return nil, db.wrap(err, "list links")
		}
		out = append(out, l)
	}
	return out, db.wrap(rows.Err(), "list links")
}

// AdvanceDelivery raises the session's delivery cursor to seq (never
// lowers it), creating a non-current link row of this machine when none
// exists.
func (db *DB) AdvanceDelivery(ctx context.Context, wsID, harness, nativeID string, seq int64) error {
	err := db.withStateTx(ctx, func(tx *sql.Tx) (string, error) {
		if err := requireWorkstream(ctx, tx, wsID); err != nil {
			return "", err
		}
		_, err := tx.ExecContext(ctx, sqlAdvanceDelivery, wsID, harness, nativeID, seq, db.nowMicro(), db.machine)
		return wsID, err
	})
	return db.wrap(err, "advance delivery cursor")
}

const linkColumns = `workstream_id, harness, machine, native_session_id, is_current, source_cursor, delivery_cursor, created_at, updated_at`

func scanLink(r rowScanner) (ledger.Link, error) {
	var l ledger.Link
	var c, u int64
	err := r.Scan(&l.WorkstreamID, &l.Harness, &l.Machine, &l.NativeSessionID, &l.Current, &l.SourceCursor, &l.DeliveryCursor, &c, &u)
	l.CreatedAt, l.UpdatedAt = fromMicro(c), fromMicro(u)
	return l, err
}
