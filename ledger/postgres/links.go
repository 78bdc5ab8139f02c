package postgres

import (
	"context"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/ai-memory/ai-memory/ledger"
)

// LinkSession makes nativeID the current session of (workstream, harness,
// this machine), demoting this machine's previous current one. A known id
// keeps its cursors. Other machines' links are untouched: a native session
// lives in one machine's harness store.
func (db *DB) LinkSession(ctx context.Context, wsID, harness, nativeID string) (ledger.Link, error) {
	if strings.TrimSpace(harness) == "" || strings.TrimSpace(nativeID) == "" {
		return ledger.Link{}, errors.New("link session: empty harness or native session id")
	}
	var l ledger.Link
	_, err := db.withStateTx(ctx, func(t *tx) (string, error) {
		if _, _, err := lockWorkstream(ctx, t, wsID); err != nil {
			return "", err
		}
		if _, err := t.Exec(ctx, sqlDemoteLinks, t.now, wsID, harness, nativeID, db.machine); err != nil {
			return "", err
		}
		if _, err := t.Exec(ctx, sqlUpsertCurrentLink, wsID, harness, nativeID, t.now, db.machine); err != nil {
			return "", err
		}
		var err error
		l, err = scanLink(t.QueryRow(ctx, sqlLink, wsID, harness, nativeID, db.machine))
		return wsID, err
	})
	return l, db.wrap(err, "link session")
}

// CurrentLink returns the current session link of (workstream, harness).
func (db *DB) CurrentLink(ctx context.Context, wsID, harness string) (ledger.Link, bool, error) {
	return db.oneLink(ctx, "read current link", sqlCurrentLink, wsID, harness, db.machine)
}

// SessionLink returns the link of that exact session, current or not.
func (db *DB) SessionLink(ctx context.Context, wsID, harness, nativeID string) (ledger.Link, bool, error) {
	return db.oneLink(ctx, "read session link", sqlLink, wsID, harness, nativeID, db.machine)
}

func (db *DB) oneLink(ctx context.Context, op, query string, args ...any) (ledger.Link, bool, error) {
	l, err := scanLink(db.pool.QueryRow(ctx, query, args...))
	if errors.Is(err, pgx.ErrNoRows) {
		return ledger.Link{}, false, nil
	}
	if err != nil {
		return ledger.Link{}, false, db.wrap(err, op)
	}
	return l, true, nil
}

// Links lists the workstream's links of every machine: current ones first, then by most
// recent update.
func (db *DB) Links(ctx context.Context, wsID string) ([]ledger.Link, error) {
	rows, err := db.pool.Query(ctx, sqlLinksOf, wsID)
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
// lowers it), creating a non-current link row when none exists.
func (db *DB) AdvanceDelivery(ctx context.Context, wsID, harness, nativeID string, seq int64) error {
	_, err := db.withStateTx(ctx, func(t *tx) (string, error) {
		if _, _, err := lockWorkstream(ctx, t, wsID); err != nil {
			return "", err
		}
		_, err := t.Exec(ctx, sqlAdvanceDelivery, wsID, harness, nativeID, seq, t.now, db.machine)
		return wsID, err
	})
	return db.wrap(err, "advance delivery cursor")
}

func scanLink(r rowScanner) (ledger.Link, error) {
	var l ledger.Link
	var c, u int64
	err := r.Scan(&l.WorkstreamID, &l.Harness, &l.Machine, &l.NativeSessionID, &l.Current, &l.SourceCursor, &l.DeliveryCursor, &c, &u)
	l.CreatedAt, l.UpdatedAt = fromMicro(c), fromMicro(u)
	return l, err
}
