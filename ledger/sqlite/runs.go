package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/ai-memory/ai-memory/ledger"
)

// AcquireLease opens a new active run on the workstream, owned by owner on
// this ledger's machine (owner.Machine is set to it). In one IMMEDIATE
// transaction touching only this workstream it first reclaims the current
// holder when its lease lapsed (-> expired) or when it ran on this machine
// and owner's host and its process is gone (-> interrupted); a holder on
// another machine is never probed, so it blocks until its lease lapses. A
// live holder yields *BusyError. reclaimed lists the runs it took over, so
// the caller can import their missing transcript tails.
func (db *DB) AcquireLease(ctx context.Context, wsID, harness string, owner ledger.Owner) (ledger.Run, []ledger.Run, error) {
	if strings.TrimSpace(harness) == "" {
		return ledger.Run{}, nil, errors.New("acquire lease: empty harness name")
	}
	owner.Machine = db.machine
	var run ledger.Run
	var reclaimed []ledger.Run
	err := db.withStateTx(ctx, func(tx *sql.Tx) (string, error) {
		if err := requireWorkstream(ctx, tx, wsID); err != nil {
			return "", err
		}
		var err error
		if reclaimed, err = db.reclaim(ctx, tx, wsID, owner); err != nil {
			return "", err
		}
		run, err = db.insertRun(ctx, tx, wsID, harness, owner)
		return wsID, err
	})
	if err != nil {
		return ledger.Run{}, nil, db.wrap(err, "acquire lease")
	}
	return run, reclaimed, nil
}

func requireWorkstream(ctx context.Context, q querier, wsID string) error {
	var k int64
	err := q.QueryRowContext(ctx, sqlWorkstreamKey, wsID).Scan(&k)
	if errors.Is(err, sql.ErrNoRows) {
		return ledger.Errorf(ledger.ErrNotFound, "workstream %s does not exist; list them with `ai-memory workstreams`", wsID)
	}
	return err
}

// reclaim ends the workstream's active run if it may be taken over, or
// returns *BusyError.
func (db *DB) reclaim(ctx context.Context, tx *sql.Tx, wsID string, owner ledger.Owner) ([]ledger.Run, error) {
	holder, err := scanRun(tx.QueryRowContext(ctx, sqlActiveRunOf, wsID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	now := db.now()
	state := ledger.RunExpired
	if now.Before(holder.LeaseExpiresAt) {
		if !ledger.SameMachine(holder.Owner, owner) || db.ProcessAlive(holder.Owner) {
			return nil, &ledger.BusyError{Holder: holder}
		}
		state = ledger.RunInterrupted
	}
	if _, err := tx.ExecContext(ctx, sqlEndRun, string(state), now.UnixMicro(), holder.ID); err != nil {
		return nil, err
	}
	holder.State, holder.EndedAt = state, &now
	return []ledger.Run{holder}, nil
}

func (db *DB) insertRun(ctx context.Context, tx *sql.Tx, wsID, harness string, o ledger.Owner) (ledger.Run, error) {
	u, err := uuid.NewV7()
	if err != nil {
		return ledger.Run{}, fmt.Errorf("new run id: %w", err)
	}
	now := db.now()
	r := ledger.Run{ID: u.String(), WorkstreamID: wsID, Harness: harness, State: ledger.RunActive,
		StartedAt: now, LeaseExpiresAt: now.Add(db.lease), Owner: o}
	_, err = tx.ExecContext(ctx, sqlInsertRun, r.ID, wsID, harness, string(ledger.RunActive),
		now.UnixMicro(), r.LeaseExpiresAt.UnixMicro(), o.Host, o.PID, o.StartTime, o.Machine)
	r.StartedAt, r.LeaseExpiresAt = fromMicro(now.UnixMicro()), fromMicro(r.LeaseExpiresAt.UnixMicro())
	return r, err
}

// RenewLease extends an active run's lease to now plus the lease length, even when
// it already lapsed, as long as nobody expired or took it over; otherwise
// ErrLeaseLost.
func (db *DB) RenewLease(ctx context.Context, runID string) (time.Time, error) {
	until := db.now().Add(db.lease)
	// No state snapshot: a lease expiry is transient (a rebuilt ledger
	// shows the lease as of the last snapshot, then renewals continue).
	if err := db.updateActiveRunNoState(ctx, runID, "renew lease", sqlRenewLease, until.UnixMicro(), runID); err != nil {
		return time.Time{}, err
	}
	return fromMicro(until.UnixMicro()), nil
}

// FinishRun marks an active run finished with the agent's exit code (nil
// when unknown). Finishing an already finished run is a no-op.
func (db *DB) FinishRun(ctx context.Context, runID string, exitCode *int) error {
	var code sql.NullInt64
	if exitCode != nil {
		code = sql.NullInt64{Int64: int64(*exitCode), Valid: true}
	}
	err := db.updateActiveRun(ctx, runID, "finish run", sqlFinishRun, db.nowMicro(), code, runID)
	if errors.Is(err, ledger.ErrLeaseLost) {
		if r, rerr := db.Run(ctx, runID); rerr == nil && r.State == ledger.RunFinished {
			return nil
		}
	}
	return err
}

// CancelRun releases the lease of a launch aborted before or without the
// agent: the run becomes interrupted. Cancelling an ended run is a no-op.
func (db *DB) CancelRun(ctx context.Context, runID string) error {
	err := db.updateActiveRun(ctx, runID, "cancel run", sqlEndRun, string(ledger.RunInterrupted), db.nowMicro(), runID)
	if errors.Is(err, ledger.ErrLeaseLost) {
		return nil
	}
	return err
}

// updateActiveRun runs an UPDATE guarded by state = 'active' (with a state
// snapshot of the run's workstream) and tells "no such run" (ErrNotFound)
// from "not active any more" (ErrLeaseLost).
func (db *DB) updateActiveRun(ctx context.Context, runID, op, query string, args ...any) error {
	n, err := db.execRunState(ctx, runID, query, args...)
	if err != nil {
		return db.wrap(err, op)
	}
	return db.leaseLostUnless(ctx, n, runID, op)
}

// updateActiveRunNoState is updateActiveRun without the state snapshot.
func (db *DB) updateActiveRunNoState(ctx context.Context, runID, op, query string, args ...any) error {
	res, err := db.sql.ExecContext(ctx, query, args...)
	if err != nil {
		return db.wrap(err, op)
	}
	n, _ := res.RowsAffected()
	return db.leaseLostUnless(ctx, n, runID, op)
}

func (db *DB) leaseLostUnless(ctx context.Context, n int64, runID, op string) error {
	if n > 0 {
		return nil
	}
	r, err := db.Run(ctx, runID)
	if err != nil {
		return err
	}
	return ledger.Errorf(ledger.ErrLeaseLost, "%s: run %s is %s, no longer holding the workstream lease", op, runID, r.State)
}
