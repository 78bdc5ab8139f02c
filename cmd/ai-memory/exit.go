package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ai-memory/ai-memory/ledger"
)

// Exit codes of the wrapper itself. A managed agent's own exit code is
// returned unchanged (128+N when a signal killed it), so the wrapper's codes
// follow env(1)/docker: they sit just below the shell's 126/127.
const (
	exitOK       = 0
	exitFailure  = 1   // generic failure of an ai-memory command
	exitUsage    = 2   // bad flags, arguments or names
	exitNoLedger = 69  // the ledger cannot be reached (EX_UNAVAILABLE)
	exitBusy     = 75  // workstream lease held by another launcher (EX_TEMPFAIL)
	exitWrapper  = 125 // ai-memory failed around a launch (ledger, lease, import)
	exitNoExec   = 126 // harness executable found but not executable
	exitNotFound = 127 // harness executable not found
)

// usageError marks errors caused by how ai-memory was invoked.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// exitCoder is implemented by errors that carry their own exit code, such as
// the child's exit status passed through by the launcher.
type exitCoder interface {
	ExitCode() int
}

// silentError is implemented by errors whose message was already printed.
type silentError interface {
	Silent() bool
}

// exitCode prints err (one line, prefixed) and returns the process exit code.
func exitCode(err error, w io.Writer) int {
	if err == nil {
		return exitOK
	}
	code := classify(err)
	var s silentError
	if !(errors.As(err, &s) && s.Silent()) {
		msg := strings.TrimSpace(err.Error())
		fmt.Fprintf(w, "ai-memory: %s\n", msg)
	}
	return code
}

func classify(err error) int {
	if errors.Is(err, ledger.ErrUnavailable) {
		return exitNoLedger // whatever layer reported it
	}
	var ec exitCoder
	if errors.As(err, &ec) {
		return ec.ExitCode()
	}
	var ue usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitFailure
}

// cliError turns urfave/cli's own "No help topic for 'x'" (exit 3) into a
// usage error that says what to do.
func cliError(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "No help topic for '"); ok {
		return usageError{fmt.Errorf("unknown command '%s; see: ai-memory help", name)}
	}
	for _, p := range []string{"flag provided but not defined", "flag needs an argument", "invalid value", "invalid boolean"} {
		if strings.HasPrefix(msg, p) {
			return usageError{err}
		}
	}
	return err
}
