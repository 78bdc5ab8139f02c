package agentproc

import (
	"os"

	"golang.org/x/term"
)

// IsTerminal reports whether f is a terminal; the caller uses it on stdin to choose Spec.PTY.
func IsTerminal(f *os.File) bool {
	return f != nil && term.IsTerminal(fdOf(f))
}

// fdOf returns f's descriptor without f.Fd(), which would switch a non-blocking file (and so
// the open file description shared with the parent shell) to blocking mode. -1 for nil.
func fdOf(f *os.File) int {
	if f == nil {
		return -1
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return -1
	}
	fd := -1
	_ = rc.Control(func(u uintptr) { fd = int(u) })
	return fd
}
