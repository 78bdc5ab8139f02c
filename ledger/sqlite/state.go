package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"os"

	"github.com/ai-memory/ai-memory/ledger/durable"
)

// withStateTx runs fn in one write transaction and, in the same
// transaction, writes a state snapshot of the workstream fn names (none
// when it returns ""). The snapshot file is in place before the commit; if
// the transaction fails it is removed, and after a commit all but the
// previous one are (best effort: rebuild reads the newest readable one).
func (db *DB) withStateTx(ctx context.Context, fn func(*sql.Tx) (wsID string, err error)) error {
	var created, wsID string
	var seq int64
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		var err error
		if wsID, err = fn(tx); err != nil || wsID == "" {
			return err
		}
		created, seq, err = db.writeState(ctx, tx, wsID)
		return err
	})
	switch {
	case err != nil && created != "":
		os.Remove(created)
	case err == nil && created != "":
		db.store.PruneState(wsID, seq)
	}
	return err
}

// writeState snapshots wsID as the transaction sees it (durable.WriteState;
// the transaction holds SQLite's write lock, so snapshot numbers only grow).
func (db *DB) writeState(ctx context.Context, tx *sql.Tx, wsID string) (path string, seq int64, err error) {
	snap, err := readState(ctx, tx, wsID)
	if err != nil {
		return "", 0, fmt.Errorf("snapshot workstream state: %w", err)
	}
	return db.store.WriteState(snap)
}

// readState reads the snapshot content of one workstream.
func readState(ctx context.Context, tx *sql.Tx, wsID string) (durable.State, error) {
	s := durable.NewState()
	w := &s.Workstream
	err := tx.QueryRowContext(ctx, sqlWorkstreamByID, wsID).Scan(&w.ID, &w.Name, &w.RepoFingerprint,
		&w.WorktreeFingerprint, &w.Cwd, &w.CreatedAt, &w.SelectedAt, &w.UpdatedAt)
	if err != nil {
		return s, err
	}
	if s.Links, err = stateLinks(ctx, tx, wsID); err != nil {
		return s, err
	}
	s.Runs, err = stateRuns(ctx, tx, wsID)
	return s, err
}

func stateLinks(ctx context.Context, tx *sql.Tx, wsID string) ([]durable.StateLink, error) {
	rows, err := tx.QueryContext(ctx, sqlStateLinks, wsID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []durable.StateLink{}
	for rows.Next() {
		var l durable.StateLink
		if err := rows.Scan(&l.Harness, &l.Machine, &l.NativeSessionID, &l.Current, &l.SourceCursor, &l.DeliveryCursor, &l.CreatedAt, &l.UpdatedAt); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

func stateRuns(ctx context.Context, tx *sql.Tx, wsID string) ([]durable.StateRun, error) {
	rows, err := tx.QueryContext(ctx, sqlStateRuns, wsID, durable.StateRunsKept)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []durable.StateRun{}
	for rows.Next() {
		var r durable.StateRun
		var code, ended sql.NullInt64
		if err := rows.Scan(&r.ID, &r.Harness, &r.NativeSessionID, &r.State, &code, &r.StartedAt, &ended,
			&r.LeaseExpiresAt, &r.OwnerHost, &r.OwnerPID, &r.OwnerStart, &r.OwnerMachine, &r.SyncAfter, &r.SyncThrough, &r.ContextDelivered); err != nil {
			return nil, err
		}
		if code.Valid {
			r.ExitCode = &code.Int64
		}
		if ended.Valid {
			r.EndedAt = &ended.Int64
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
