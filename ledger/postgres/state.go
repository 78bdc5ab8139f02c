package postgres

import (
	"context"
	"fmt"
	"os"

	"github.com/jackc/pgx/v5"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
)

// withStateTx runs fn in one transaction and, in the same transaction,
// writes a state snapshot of the workstream fn names (none when it returns
// ""), as the SQLite backend does: the snapshot is in place before the
// commit, removed if the transaction fails, and older ones are pruned after
// it commits. fn holds the workstream's row lock, which keeps snapshot
// numbers growing. The snapshots are this machine's durable copy of what it
// changed. It returns the snapshot (zero when none was taken), so a caller
// need not read again what it holds.
func (db *DB) withStateTx(ctx context.Context, fn func(*tx) (wsID string, err error)) (durable.State, error) {
	var created, wsID string
	var seq int64
	var snap durable.State
	err := db.withTx(ctx, func(t *tx) error {
		var err error
		if wsID, err = fn(t); err != nil {
			return err
		}
		if wsID == "" {
			return t.flush(ctx)
		}
		if snap, err = readState(ctx, t, wsID); err != nil {
			return err
		}
		created, seq, err = db.store.WriteState(snap)
		return err
	})
	switch {
	case err != nil && created != "":
		os.Remove(created)
	case err == nil && created != "":
		db.store.PruneState(wsID, seq)
	}
	if err != nil {
		snap = durable.State{}
	}
	return snap, err
}

// readState reads what a snapshot holds: the workstream, its links and
// its runs, sent as one batch behind the statements fn queued (one round
// trip: readState runs inside every state-changing transaction, three on
// a launch).
func readState(ctx context.Context, t *tx, wsID string) (durable.State, error) {
	s := durable.NewState()
	w := &s.Workstream
	b, queued := t.takeBatch()
	b.Queue(sqlWorkstreamByID, wsID).QueryRow(func(r pgx.Row) error {
		return r.Scan(&w.ID, &w.Name, &w.RepoFingerprint, &w.WorktreeFingerprint, &w.Cwd, &w.CreatedAt, &w.SelectedAt, &w.UpdatedAt)
	})
	b.Queue(sqlStateLinks, wsID).Query(func(rows pgx.Rows) (err error) {
		s.Links, err = pgx.CollectRows(rows, scanStateLink)
		return err
	})
	b.Queue(sqlStateRuns, wsID, durable.StateRunsKept).Query(func(rows pgx.Rows) (err error) {
		s.Runs, err = pgx.CollectRows(rows, scanStateRun)
		return err
	})
	err := t.SendBatch(ctx, b).Close()
	if err != nil && !queued {
		err = fmt.Errorf("snapshot workstream state: %w", err)
	}
	return s, err
}

func scanStateLink(r pgx.CollectableRow) (l durable.StateLink, err error) {
	err = r.Scan(&l.Harness, &l.Machine, &l.NativeSessionID, &l.Current, &l.SourceCursor, &l.DeliveryCursor, &l.CreatedAt, &l.UpdatedAt)
	return l, err
}

func scanStateRun(row pgx.CollectableRow) (r durable.StateRun, err error) {
	err = row.Scan(&r.ID, &r.Harness, &r.NativeSessionID, &r.State, &r.ExitCode, &r.StartedAt, &r.EndedAt,
		&r.LeaseExpiresAt, &r.OwnerHost, &r.OwnerPID, &r.OwnerStart, &r.OwnerMachine, &r.SyncAfter, &r.SyncThrough, &r.ContextDelivered)
	return r, err
}

// restoreWorkstream recreates a workstream the ledger does not know from
// its newest state snapshot (see the SQLite backend). ok is false when the
// directory has no snapshot.
func (db *DB) restoreWorkstream(ctx context.Context, t *tx, wsID string, res *ledger.RebuildResult) (ok bool, err error) {
	snap, ok, err := db.store.LatestState(wsID)
	if err != nil || !ok {
		return false, err
	}
	w := snap.Workstream
	var taken bool
	if err := t.QueryRow(ctx, sqlNameTaken, w.RepoFingerprint, w.WorktreeFingerprint, w.Name).Scan(&taken); err != nil {
		return false, err
	}
	if taken {
		w.Name = fmt.Sprintf("%s-restored-%.8s", w.Name, w.ID)
		res.Renamed++
	}
	if _, err := t.Exec(ctx, sqlRestoreWorkstream, w.ID, w.RepoFingerprint, w.WorktreeFingerprint,
		w.Name, w.Cwd, w.CreatedAt, w.SelectedAt, w.UpdatedAt); err != nil {
		return false, fmt.Errorf("restore workstream %s: %w", w.ID, err)
	}
	for _, l := range snap.Links {
		if _, err := t.Exec(ctx, sqlRestoreLink, w.ID, l.Harness, db.adopt(l.Machine), l.NativeSessionID, l.Current,
			l.SourceCursor, l.DeliveryCursor, l.CreatedAt, l.UpdatedAt); err != nil {
			return false, fmt.Errorf("restore link %s/%s: %w", l.Harness, l.NativeSessionID, err)
		}
	}
	for _, r := range snap.Runs {
		if _, err := t.Exec(ctx, sqlRestoreRun, r.ID, w.ID, r.Harness, r.NativeSessionID, r.State,
			r.ExitCode, r.StartedAt, r.EndedAt, r.LeaseExpiresAt, r.OwnerHost, r.OwnerPID, r.OwnerStart, db.adopt(r.OwnerMachine),
			r.SyncAfter, r.SyncThrough, r.ContextDelivered); err != nil {
			return false, fmt.Errorf("restore run %s: %w", r.ID, err)
		}
	}
	res.Restored++
	return true, nil
}
