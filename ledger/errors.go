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
)

// userError is a sentinel with a specific one-line message.
type userError struct {
	msg  string
	kind error
}

func (e *userError) Error() string        { return e.msg }
func (e *userError) Is(target error) bool { return target == e.kind }

func errorf(kind error, format string, args ...any) error {
	return &userError{msg: fmt.Sprintf(format, args...), kind: kind}
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
