package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ai-memory/ai-memory/ledger"
)

// AcquireLease opens a new active run on the workstream. Under the
// workstream's row lock it first reclaims the current holder when its lease
// lapsed by the server's clock (-> expired) or when it ran on this machine
// and owner's host and its process is gone (-> interrupted); a live holder
// yields *BusyError. A holder on another machine is never probed: it
// blocks until its lease lapses. owner.Machine is set to this machine.
func (db *DB) AcquireLease(ctx context.Context, wsID, harness string, owner ledger.Owner) (ledger.Run, []ledger.Run, error) {
	if strings.TrimSpace(harness) == "" {
		return ledger.Run{}, nil, errors.New("acquire lease: empty harness name")
	}
	owner.Machine = db.machine
	var run ledger.Run
	var reclaimed []ledger.Run
	// Two round trips besides BEGIN and COMMIT: the row lock with the
	// active run, then the new run with the snapshot's reads.
	_, err := db.withStateTx(ctx, func(t *tx) (string, error) {
		holder, held, err := lockForLease(ctx, t, wsID)
		if err != nil {
			return "", err
		}
		if held {
			if reclaimed, err = db.reclaim(t, holder, owner); err != nil {
				return "", err
			}
		}
		run, err = db.queueRun(t, wsID, harness, owner)
		return wsID, err
	})
	if err != nil {
		return ledger.Run{}, nil, db.wrap(err, "acquire lease")
	}
	return run, reclaimed, nil
}

// lockForLease takes the workstream's row lock and reads its active run
// (held false when there is none) in one round trip. The read is a
// statement of its own, so under READ COMMITTED it sees what committed
// before the lock was granted.
func lockForLease(ctx context.Context, t *tx, wsID string) (holder ledger.Run, held bool, err error) {
	b := &pgx.Batch{}
	b.Queue(sqlLockWorkstream, wsID).QueryRow(func(r pgx.Row) error {
		var wsk, last int64
		return missingWorkstream(r.Scan(&wsk, &last), wsID)
	})
	b.Queue(sqlActiveRunOf, wsID).QueryRow(func(r pgx.Row) error {
		run, err := scanRun(r)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		holder, held = run, err == nil
		return err
	})
	err = t.SendBatch(ctx, b).Close()
	return holder, held, err
}

// reclaim ends holder's run when its lease lapsed or its process on this
// machine is gone, and refuses (BusyError) while it holds the lease.
func (db *DB) reclaim(t *tx, holder ledger.Run, owner ledger.Owner) ([]ledger.Run, error) {
	now := fromMicro(t.now)
	state := ledger.RunExpired
	if now.Before(holder.LeaseExpiresAt) {
		if !ledger.SameMachine(holder.Owner, owner) || db.ProcessAlive(holder.Owner) {
			return nil, &ledger.BusyError{Holder: holder}
		}
		state = ledger.RunInterrupted
	}
	t.queue(sqlEndRun, string(state), t.now, holder.ID)
	holder.State, holder.EndedAt = state, &now
	return []ledger.Run{holder}, nil
}

// queueRun queues the insert of a new active run holding the lease.
func (db *DB) queueRun(t *tx, wsID, harness string, o ledger.Owner) (ledger.Run, error) {
	u, err := uuid.NewV7()
	if err != nil {
		return ledger.Run{}, fmt.Errorf("new run id: %w", err)
	}
	until := t.now + db.lease.Microseconds()
	r := ledger.Run{ID: u.String(), WorkstreamID: wsID, Harness: harness, State: ledger.RunActive,
		StartedAt: fromMicro(t.now), LeaseExpiresAt: fromMicro(until), Owner: o}
	t.queue(sqlInsertRun, r.ID, wsID, harness, t.now, until, o.Host, o.PID, o.StartTime, o.Machine)
	return r, nil
}

// RenewLease extends an active run's lease to the server's now plus the
// lease length, even when it already lapsed, as long as nobody expired or
// took it over; otherwise ErrLeaseLost. No state snapshot: a lease expiry
// is transient.
func (db *DB) RenewLease(ctx context.Context, runID string) (time.Time, error) {
	now, err := db.serverNow(ctx)
	if err != nil {
		return time.Time{}, db.wrap(err, "renew lease")
	}
	until := now + db.lease.Microseconds()
	tag, err := db.pool.Exec(ctx, sqlRenewLease, runID, until)
	if err != nil {
		return time.Time{}, db.wrap(err, "renew lease")
	}
	if tag.RowsAffected() == 0 {
		return time.Time{}, db.leaseLost(ctx, runID, "renew lease")
	}
	return fromMicro(until), nil
}

// FinishRun marks an active run finished with the agent's exit code (nil
// when unknown). Finishing an already finished run is a no-op.
func (db *DB) FinishRun(ctx context.Context, runID string, exitCode *int) error {
	var code *int64
	if exitCode != nil {
		c := int64(*exitCode)
		code = &c
	}
	n, err := db.execRunState(ctx, runID, func(t *tx) (string, []any) { return sqlFinishRun, []any{t.now, code, runID} })
	if err != nil {
		return db.wrap(err, "finish run")
	}
	if n == 0 {
		if r, rerr := db.Run(ctx, runID); rerr == nil && r.State == ledger.RunFinished {
			return nil
		}
		return db.leaseLost(ctx, runID, "finish run")
	}
	return nil
}

// CancelRun releases the lease of a launch aborted before or without the
// agent: the run becomes interrupted. Cancelling an ended run is a no-op.
func (db *DB) CancelRun(ctx context.Context, runID string) error {
	n, err := db.execRunState(ctx, runID, func(t *tx) (string, []any) {
		return sqlEndRun, []any{string(ledger.RunInterrupted), t.now, runID}
	})
	if err != nil {
		return db.wrap(err, "cancel run")
	}
	if n == 0 {
		_, err := db.Run(ctx, runID)
		return err
	}
	return nil
}

func (db *DB) leaseLost(ctx context.Context, runID, op string) error {
	r, err := db.Run(ctx, runID)
	if err != nil {
		return err
	}
	return ledger.Errorf(ledger.ErrLeaseLost, "%s: run %s is %s, no longer holding the workstream lease", op, runID, r.State)
}

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
	n, err := db.execRunState(ctx, runID, func(*tx) (string, []any) { return query, args })
	if err != nil {
		return db.wrap(err, op)
	}
	if n == 0 {
		return ledger.Errorf(ledger.ErrNotFound, "%s: run %s does not exist", op, runID)
	}
	return nil
}

// execRunState runs one UPDATE of a run under its workstream's row lock
// and, when it changed the row, snapshots the workstream in the same
// transaction. stmt builds the statement once the transaction's time is
// known.
func (db *DB) execRunState(ctx context.Context, runID string, stmt func(*tx) (string, []any)) (n int64, err error) {
	_, err = db.withStateTx(ctx, func(t *tx) (string, error) {
		var wsID string
		err := t.QueryRow(ctx, sqlRunWorkstream, runID).Scan(&wsID)
		if errors.Is(err, pgx.ErrNoRows) {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		if _, _, err := lockWorkstream(ctx, t, wsID); err != nil {
			return "", err
		}
		q, args := stmt(t)
		tag, err := t.Exec(ctx, q, args...)
		if err != nil {
			return "", err
		}
		if n = tag.RowsAffected(); n == 0 {
			return "", nil
		}
		return wsID, nil
	})
	return n, err
}

// Run returns the run with that id, or ErrNotFound.
func (db *DB) Run(ctx context.Context, runID string) (ledger.Run, error) {
	r, err := scanRun(db.pool.QueryRow(ctx, sqlRunByID, runID))
	if errors.Is(err, pgx.ErrNoRows) {
		return ledger.Run{}, ledger.Errorf(ledger.ErrNotFound, "run %s does not exist", runID)
	}
	return r, db.wrap(err, "read run")
}

// Runs returns the workstream's runs, newest first; limit <= 0 means all.
func (db *DB) Runs(ctx context.Context, wsID string, limit int) ([]ledger.Run, error) {
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	return db.runs(ctx, "list runs", sqlRunsOf, wsID, lim)
}

// RunsOldestFirst lists a workstream's runs in launch order.
func (db *DB) RunsOldestFirst(ctx context.Context, wsID string) ([]ledger.Run, error) {
	return db.runs(ctx, "list runs", sqlRunsOldestFirst, wsID)
}

func (db *DB) runs(ctx context.Context, op, query string, args ...any) ([]ledger.Run, error) {
	rows, err := db.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, db.wrap(err, op)
	}
	defer rows.Close()
	var out []ledger.Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, db.wrap(err, op)
		}
		out = append(out, r)
	}
	return out, db.wrap(rows.Err(), op)
}

// LiveRunForSession reports whether an active run, unexpired by the
// server's clock, is bound to that native session and its owner process is
// alive. An owner on another machine cannot be probed and counts as alive
// while its lease is unexpired.
func (db *DB) LiveRunForSession(ctx context.Context, harness, nativeID string) (bool, error) {
	now, err := db.serverNow(ctx)
	if err != nil {
		return false, db.wrap(err, "find live run")
	}
	runs, err := db.runs(ctx, "find live run", sqlLiveRunsForSession, harness, nativeID, now)
	if err != nil {
		return false, err
	}
	here := db.here()
	for _, r := range runs {
		if !ledger.SameMachine(r.Owner, here) || db.ProcessAlive(r.Owner) {
			return true, nil
		}
	}
	return false, nil
}

func scanRun(r rowScanner) (ledger.Run, error) {
	var run ledger.Run
	var state string
	var code, ended *int64
	var started, lease int64
	err := r.Scan(&run.ID, &run.WorkstreamID, &run.Harness, &run.NativeSessionID, &state, &code, &started, &ended,
		&lease, &run.Owner.Host, &run.Owner.PID, &run.Owner.StartTime, &run.Owner.Machine, &run.SyncAfter, &run.SyncThrough, &run.ContextDelivered)
	run.State = ledger.RunState(state)
	run.StartedAt, run.LeaseExpiresAt = fromMicro(started), fromMicro(lease)
	if code != nil {
		c := int(*code)
		run.ExitCode = &c
	}
	if ended != nil {
		t := fromMicro(*ended)
		run.EndedAt = &t
	}
	return run, err
}
