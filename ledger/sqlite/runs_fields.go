package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/ai-memory/ai-memory/ledger"
)

// SetRunSession records the native session the run's agent uses.
func (db *DB) SetRunSession(ctx context.Context, runID, nativeID string) error {
	return db.updateRun(ctx, runID, "set run session", sqlSetRunSession, nativeID, runID)
}

// SetRunSync records the event range (after, through] owed to the run's
// agent as its handoff packet.
func (db *DB) SetRunSync(ctx context.Context, runID string, after, through int64) error {
	return db.updateRun(ctx, runID, "set run sync range", sqlSetRunSync, after, through, runID)
}

// MarkContextDelivered records that the agent acknowledged its packet.
func (db *DB) MarkContextDelivered(ctx context.Context, runID string) error {
	return db.updateRun(ctx, runID, "mark context delivered", sqlMarkDelivered, runID)
}

func (db *DB) updateRun(ctx context.Context, runID, op, query string, args ...any) error {
	n, err := db.execRunState(ctx, runID, query, args...)
	if err != nil {
		return db.wrap(err, op)
	}
	if n == 0 {
		return ledger.Errorf(ledger.ErrNotFound, "%s: run %s does not exist", op, runID)
	}
	return nil
}

// execRunState runs an UPDATE of one run and, when it changed a row,
// snapshots the run's workstream in the same transaction.
func (db *DB) execRunState(ctx context.Context, runID, query string, args ...any) (n int64, err error) {
	err = db.withStateTx(ctx, func(tx *sql.Tx) (string, error) {
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return "", err
		}
		if n, _ = res.RowsAffected(); n == 0 {
			return "", nil
		}
		var wsID string
		err = tx.QueryRowContext(ctx, sqlRunWorkstream, runID).Scan(&wsID)
		return wsID, err
	})
	return n, err
}

// Run returns the run with that id, or ErrNotFound.
func (db *DB) Run(ctx context.Context, runID string) (ledger.Run, error) {
	r, err := scanRun(db.sql.QueryRowContext(ctx, sqlRunByID, runID))
	if errors.Is(err, sql.ErrNoRows) {
		return ledger.Run{}, ledger.Errorf(ledger.ErrNotFound, "run %s does not exist", runID)
	}
	return r, db.wrap(err, "read run")
}

// Runs returns the workstream's runs, newest first; limit <= 0 means all.
func (db *DB) Runs(ctx context.Context, wsID string, limit int) ([]ledger.Run, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := db.sql.QueryContext(ctx, sqlRunsOf, wsID, limit)
	if err != nil {
		return nil, db.wrap(err, "list runs")
	}
	defer rows.Close()
	var out []ledger.Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, db.wrap(err, "list runs")
		}
		out = append(out, r)
	}
	return out, db.wrap(rows.Err(), "list runs")
}

// LiveRunForSession reports whether an active, unexpired run of any
// workstream is bound to that native session and its owner process is
// alive. An owner on another machine cannot be probed and counts as alive
// while its lease is unexpired.
func (db *DB) LiveRunForSession(ctx context.Context, harness, nativeID string) (bool, error) {
	rows, err := db.sql.QueryContext(ctx, sqlLiveRunsForSession, harness, nativeID, db.nowMicro())
	if err != nil {
		return false, db.wrap(err, "find live run")
	}
	var runs []ledger.Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			rows.Close()
			return false, db.wrap(err, "find live run")
		}
		runs = append(runs, r)
	}
	rows.Close()
	here := db.here()
	for _, r := range runs {
		if !ledger.SameMachine(r.Owner, here) || db.ProcessAlive(r.Owner) {
			return true, nil
		}
	}
	return false, db.wrap(rows.Err(), "find live run")
}

const runColumns = `id, workstream_id, harness, native_session_id, state, exit_code, started_at, ended_at,
  lease_expires_at, owner_host, owner_pid, owner_start, owner_machine, sync_after, sync_through, context_delivered`

func scanRun(r rowScanner) (ledger.Run, error) {
	var run ledger.Run
	var state string
	var code, ended sql.NullInt64
	var started, lease int64
	err := r.Scan(&run.ID, &run.WorkstreamID, &run.Harness, &run.NativeSessionID, &state, &code, &started, &ended,
		&lease, &run.Owner.Host, &run.Owner.PID, &run.Owner.StartTime, &run.Owner.Machine, &run.SyncAfter, &run.SyncThrough, &run.ContextDelivered)
	run.State = ledger.RunState(state)
	run.StartedAt, run.LeaseExpiresAt = fromMicro(started), fromMicro(lease)
	if code.Valid {
		c := int(code.Int64)
		run.ExitCode = &c
	}
	if ended.Valid {
		t := fromMicro(ended.Int64)
		run.EndedAt = &t
	}
	return run, err
}
