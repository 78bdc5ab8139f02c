package ledger

import (
	"errors"
	"fmt"
	"time"
)

// Sentinel errors; test with errors.Is. The concrete errors carry a
// one-line user-facing message.
var (
	// ErrNotFound: the workstream, run or link does not exist.
	ErrNotFound = errors.New("not found")
	// ErrExists: a workstream with that name already exists in the scope.
	ErrExists = errors.New("already exists")
	// ErrSchemaTooNew: the ledger was written by a newer ai-memory.
	ErrSchemaTooNew = errors.New("ledger schema is newer than this ai-memory")
	// ErrLeaseLost: the run is no longer active (finished, expired or taken over).
	ErrLeaseLost = errors.New("lease lost")
	// ErrLocked: another process held the ledger's write lock past the busy timeout.
	ErrLocked = errors.New("ledger is locked")
	// ErrUnavailable: the ledger cannot be reached (a server that refuses
	// or does not answer, failed authentication). Backends wrap their
	// connection and authentication failures in it, so callers can tell
	// "retry later, or run --offline" from a broken ledger.
	ErrUnavailable = errors.New("ledger unavailable")
)

// UserError is a sentinel with a specific one-line message: a backend
// returns it (through Errorf) as is, without adding context.
type UserError struct {
	msg  string
	kind error
}

func (e *UserError) Error() string        { return e.msg }
func (e *UserError) Is(target error) bool { return target == e.kind }

// Errorf returns an error that errors.Is kind, with its own message.
func Errorf(kind error, format string, args ...any) error {
	return &UserError{msg: fmt.Sprintf(format, args...), kind: kind}
}

// BusyError reports that another live run holds the workstream's lease.
type BusyError struct {
	Holder Run
}

func (e *BusyError) Error() string {
	h := e.Holder
	return fmt.Sprintf("workstream is busy: a %s run on %s:%d holds it since %s until %s",
		h.Harness, h.Owner.Host, h.Owner.PID,
		h.StartedAt.Format(time.RFC3339), h.LeaseExpiresAt.Format(time.RFC3339))
}
