package postgres

import (
	"context"
	"fmt"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
)

const sqlImportRun = `INSERT INTO runs (id, workstream_id, harness, native_session_id, state, exit_code, started_at, ended_at,
  lease_expires_at, owner_host, owner_pid, owner_start, sync_after, sync_through, context_delivered, owner_machine)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
  ON CONFLICT (id) DO NOTHING`

// ImportRun stores a run that ended in another ledger as it is (id,
// times, owner, state, exit code), for `ai-memory ledger push` and `ledger
// sync`; a run already stored under its id is left alone. An active run
// holds a lease elsewhere and is refused.
func (db *DB) ImportRun(ctx context.Context, r ledger.Run) error {
	switch {
	case !durable.SafeRunID().MatchString(r.ID):
		return fmt.Errorf("import run: run id %q is not a valid id", r.ID)
	case r.State == ledger.RunActive:
		return fmt.Errorf("import run: run %s is still active; import it once it has ended", r.ID)
	case r.State != ledger.RunFinished && r.State != ledger.RunExpired && r.State != ledger.RunInterrupted:
		return fmt.Errorf("import run: run %s has unknown state %q", r.ID, r.State)
	}
	var code, ended *int64
	if r.ExitCode != nil {
		c := int64(*r.ExitCode)
		code = &c
	}
	if r.EndedAt != nil {
		e := r.EndedAt.UnixMicro()
		ended = &e
	}
	_, err := db.withStateTx(ctx, func(t *tx) (string, error) {
		if _, _, err := lockWorkstream(ctx, t, r.WorkstreamID); err != nil {
			return "", err
		}
		_, err := t.Exec(ctx, sqlImportRun, r.ID, r.WorkstreamID, r.Harness, r.NativeSessionID, string(r.State), code,
			r.StartedAt.UnixMicro(), ended, r.LeaseExpiresAt.UnixMicro(), r.Owner.Host, r.Owner.PID, r.Owner.StartTime,
			r.SyncAfter, r.SyncThrough, r.ContextDelivered, r.Owner.Machine)
		return r.WorkstreamID, err
	})
	return db.wrap(err, "import run")
}
