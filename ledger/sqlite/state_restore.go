package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"os"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
)

// restoreWorkstream recreates a workstream the ledger does not know from
// its newest state snapshot: the row, its links and cursors, and its runs.
// ok is false when the directory has no snapshot (segments written before
// snapshots existed, whose ledger is gone). A name already taken in the
// scope (a workstream created after the ledger was lost) gets the suffix
// "-restored-<id prefix>", counted in res.Renamed.
func (db *DB) restoreWorkstream(ctx context.Context, tx *sql.Tx, wsID string, res *ledger.RebuildResult) (ok bool, err error) {
	snap, ok, err := db.store.LatestState(wsID)
	if err != nil || !ok {
		return false, err
	}
	w := snap.Workstream
	var taken bool
	if err := tx.QueryRowContext(ctx, sqlNameTaken, w.RepoFingerprint, w.WorktreeFingerprint, w.Name).Scan(&taken); err != nil {
		return false, err
	}
	if taken {
		w.Name = fmt.Sprintf("%s-restored-%.8s", w.Name, w.ID)
		res.Renamed++
	}
	if _, err := tx.ExecContext(ctx, sqlRestoreWorkstream, w.ID, w.RepoFingerprint, w.WorktreeFingerprint,
		w.Name, w.Cwd, w.CreatedAt, w.SelectedAt, w.UpdatedAt); err != nil {
		return false, fmt.Errorf("restore workstream %s: %w", w.ID, err)
	}
	for _, l := range snap.Links {
		if _, err := tx.ExecContext(ctx, sqlRestoreLink, w.ID, l.Harness, db.adopt(l.Machine), l.NativeSessionID, l.Current,
			l.SourceCursor, l.DeliveryCursor, l.CreatedAt, l.UpdatedAt); err != nil {
			return false, fmt.Errorf("restore link %s/%s: %w", l.Harness, l.NativeSessionID, err)
		}
	}
	for _, r := range snap.Runs {
		if _, err := tx.ExecContext(ctx, sqlRestoreRun, r.ID, w.ID, r.Harness, r.NativeSessionID, r.State,
			r.ExitCode, r.StartedAt, r.EndedAt, r.LeaseExpiresAt, r.OwnerHost, r.OwnerPID, r.OwnerStart, db.adopt(r.OwnerMachine),
			r.SyncAfter, r.SyncThrough, r.ContextDelivered); err != nil {
			return false, fmt.Errorf("restore run %s: %w", r.ID, err)
		}
	}
	res.Restored++
	return true, nil
}

// ensureStateSnapshots gives a ledger written before state snapshots
// existed one snapshot per workstream, once (marked by user_version 1), so
// from then on its segments alone are enough to rebuild it.
func (db *DB) ensureStateSnapshots(ctx context.Context) error {
	var mark int
	if err := db.sql.QueryRowContext(ctx, sqlStateMarker).Scan(&mark); err != nil || mark >= 1 {
		return err
	}
	var written []durable.StateFile
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, sqlStateMarker).Scan(&mark); err != nil || mark >= 1 {
			return err // another process did it meanwhile
		}
		ids, err := queryStrings(ctx, tx, sqlAllWorkstreamIDs)
		if err != nil {
			return err
		}
		for _, id := range ids {
			p, seq, err := db.writeState(ctx, tx, id)
			if err != nil {
				return err
			}
			written = append(written, durable.StateFile{Seq: seq, Path: p})
		}
		_, err = tx.ExecContext(ctx, sqlSetStateMarker)
		return err
	})
	if err != nil {
		for _, f := range written {
			os.Remove(f.Path)
		}
		return fmt.Errorf("write workstream state snapshots: %w", err)
	}
	return nil
}

// adopt is the machine of a restored row: its own, or this machine for a
// snapshot written before machines existed.
func (db *DB) adopt(machine string) string {
	if machine == "" {
		return db.machine
	}
	return machine
}
