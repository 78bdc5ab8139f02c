package agentproc

import (
	"os"
	"syscall"
)

// Spec describes the child to run. The files must stay open until Wait returns.
type Spec struct {
	Path   string   // absolute path of the executable (already resolved)
	Args   []string // argv[1:]
	Env    []string // full environment; nil inherits the launcher's
	Dir    string   // working directory; empty means the launcher's
	Stdin  *os.File // usually os.Stdin; nil means /dev/null (inherited mode) or no input (PTY)
	Stdout *os.File // usually os.Stdout; nil discards the output
	Stderr *os.File // usually os.Stderr; unused in PTY mode (the PTY merges stderr into stdout)
	PTY    bool     // run under a PTY; the caller decides with IsTerminal(Stdin); ignored on Windows
}

// Status is how the child ended.
type Status struct {
	// Code is the child's exit code, or 128+N when signal N killed it.
	Code int
	// Signal is the signal that killed the child, zero when it exited on its own.
	Signal syscall.Signal
}

// argv returns the child's full argument vector; argv[0] is the resolved path.
func (s Spec) argv() []string {
	return append([]string{s.Path}, s.Args...)
}

// statusOf converts a finished process's state into a Status following the shell rule.
func statusOf(ps *os.ProcessState) Status {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return Status{Code: 128 + int(ws.Signal()), Signal: ws.Signal()}
	}
	return Status{Code: ps.ExitCode()}
}
