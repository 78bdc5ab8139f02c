package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
)

// sqlImportRun stores a run copied from another ledger, keeping what is
// already stored under its id.
const sqlImportRun = `INSERT INTO runs (id, workstream_id, harness, native_session_id, state, exit_code, started_at, ended_at,
  lease_expires_at, owner_host, owner_pid, owner_start, owner_machine, sync_after, sync_through, context_delivered)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (id) DO NOTHING`

// ImportRun stores a run that ended in another ledger as it is (id,
// times, owner and its machine, state, exit code), for `ai-memory ledger push` and `ledger
// sync`; a run already stored under its id is left alone. An active run
// holds a lease elsewhere and is refused.
func (db *DB) ImportRun(ctx context.Context, r ledger.Run) error {
	if err := importable(r); err != nil {
		return err
	}
	err := db.withStateTx(ctx, func(tx *sql.Tx) (string, error) {
		if err := requireWorkstream(ctx, tx, r.WorkstreamID); err != nil {
			return "", err
		}
		_, err := tx.ExecContext(ctx, sqlImportRun, importArgs(r)...)
		return r.WorkstreamID, err
	})
	return db.wrap(err, "import run")
}

// importable checks what ImportRun needs of a run.
func importable(r ledger.Run) error {
	switch {
	case !durable.SafeRunID().MatchString(r.ID):
		return fmt.Errorf("import run: run id %q is not a valid id", r.ID)
	case r.State == ledger.RunActive:
		return fmt.Errorf("import run: run %s is still active; import it once it has ended", r.ID)
	case !r.State.Ended():
		return fmt.Errorf("import run: run %s has unknown state %q", r.ID, r.State)
	}
	return nil
}

func importArgs(r ledger.Run) []any {
	var code, ended sql.NullInt64
	if r.ExitCode != nil {
		code = sql.NullInt64{Int64: int64(*r.ExitCode), Valid: true}
	}
	if r.EndedAt != nil {
		ended = sql.NullInt64{Int64: r.EndedAt.UnixMicro(), Valid: true}
	}
	return []any{r.ID, r.WorkstreamID, r.Harness, r.NativeSessionID, string(r.State), code, r.StartedAt.UnixMicro(), ended,
		r.LeaseExpiresAt.UnixMicro(), r.Owner.Host, r.Owner.PID, r.Owner.StartTime, r.Owner.Machine, r.SyncAfter, r.SyncThrough, r.ContextDelivered}
}
