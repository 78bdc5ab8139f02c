package agentproc

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// Exit codes for a child that could not be started (the env(1) and shell convention).
const (
	CodeNotFound      = 127 // the executable does not exist
	CodeNotExecutable = 126 // it exists but cannot be executed
	CodeStartFailed   = 125 // anything else: no PTY available, bad working directory, ...
)

// StartError reports a child that could not be started. Code is the exit code the launcher
// should end with.
type StartError struct {
	Code int
	Path string // the executable, named in the message
	Err  error
}

// Error is one line naming the file and saying what to do next.
func (e *StartError) Error() string {
	switch e.Code {
	case CodeNotFound:
		return fmt.Sprintf("cannot run %s: file not found; install it or fix PATH", e.Path)
	case CodeNotExecutable:
		return fmt.Sprintf("cannot run %s: not executable (%v); check its permissions (chmod +x)", e.Path, e.Err)
	default:
		return fmt.Sprintf("cannot run %s: %v", e.Path, e.Err)
	}
}

// Unwrap returns the underlying start error.
func (e *StartError) Unwrap() error { return e.Err }

// ExitCode is the code the launcher should exit with.
func (e *StartError) ExitCode() int { return e.Code }

// checkDir reports a missing or unusable working directory before the start. With a
// SysProcAttr (the PTY path) os.StartProcess skips its own check, and the child's failed chdir
// would come back as a bare ENOENT, indistinguishable from a missing executable.
func checkDir(spec Spec) error {
	if spec.Dir == "" {
		return nil
	}
	fi, err := os.Stat(spec.Dir)
	if err == nil && !fi.IsDir() {
		err = &fs.PathError{Op: "chdir", Path: spec.Dir, Err: syscall.ENOTDIR}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		pe.Op = "chdir"
	}
	if err != nil {
		return &StartError{Code: CodeStartFailed, Path: spec.Path, Err: err}
	}
	return nil
}

// newStartError classifies err from exec.Cmd.Start. A failed chdir is checked first because
// os.StartProcess reports a missing Dir as ENOENT, which would otherwise read as "not found".
func newStartError(path string, err error) *StartError {
	code := CodeStartFailed
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe) && pe.Op == "chdir":
	case errors.Is(err, fs.ErrNotExist):
		code = CodeNotFound
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.ENOEXEC), errors.Is(err, syscall.EISDIR):
		code = CodeNotExecutable
	}
	return &StartError{Code: code, Path: path, Err: err}
}
