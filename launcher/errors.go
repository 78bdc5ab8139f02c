package launcher

import (
	"errors"
	"fmt"

	"github.com/ai-memory/ai-memory/harness"
)

// Exit codes of launcher failures (the agent's own code is returned as is).
const (
	CodeUsage       = 2   // bad flags, names or combinations
	CodeUnavailable = 69  // the ledger cannot be reached (EX_UNAVAILABLE)
	CodeBusy        = 75  // the workstream lease is held by another launcher
	CodeWrapper     = 125 // ai-memory failed around the launch
	CodeNoExec      = 126 // executable found but not runnable
	CodeNotFound    = 127 // executable not found
)

// Error is a launcher failure with the exit code the process should return.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// ExitCode implements the exit-code contract of cmd/ai-memory.
func (e *Error) ExitCode() int { return e.Code }

func usageErrorf(format string, args ...any) error {
	return &Error{Code: CodeUsage, Err: fmt.Errorf(format, args...)}
}

// unknownHarness is the one message for a harness name no adapter knows.
func unknownHarness(name string) error {
	return &Error{Code: CodeUsage, Err: harness.UnknownError(name)}
}

// ErrNothingYet marks a read of history that does not exist yet (no ledger
// on this machine, or no workstream in this worktree): read commands
// answer it with their empty result and exit 0, not with a failure.
var ErrNothingYet = errors.New("nothing recorded yet")

// nothingYet is an ErrNothingYet whose message says why and what to do.
type nothingYet struct{ why string }

func (e nothingYet) Error() string        { return e.why }
func (e nothingYet) Is(target error) bool { return target == ErrNothingYet }

func wrapperError(op string, err error) error {
	var le *Error
	if errors.As(err, &le) {
		return err
	}
	return &Error{Code: CodeWrapper, Err: fmt.Errorf("%s: %w", op, err)}
}

// ExitStatus carries the agent's exit code through the command layer. It
// prints nothing: the agent already spoke for itself.
type ExitStatus struct{ Code int }

func (e ExitStatus) Error() string { return fmt.Sprintf("agent exited with status %d", e.Code) }

// ExitCode returns the agent's code.
func (e ExitStatus) ExitCode() int { return e.Code }

// Silent tells cmd/ai-memory not to print this error.
func (e ExitStatus) Silent() bool { return true }
