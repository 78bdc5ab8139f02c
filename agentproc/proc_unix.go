//go:build unix

package agentproc

import (
	"fmt"
	"os/exec"
	"sync"

	"golang.org/x/term"
)

// Proc is a running child. Its methods are safe for concurrent use.
type Proc struct {
	cmd   *exec.Cmd
	relay *relay     // nil in inherited-stdio mode
	fwd   *forwarder // signal forwarding while the child runs

	inFd     int         // PTY mode: our duplicate of the user's stdin, -1 when none
	rawFd    int         // descriptor rawState was taken from
	rawState *term.State // nil unless the user's terminal was made raw
	restore  sync.Once

	waitOnce sync.Once
	status   Status
	waitErr  error
}

// Start starts the child and returns at once, so the caller can open databases and watchers
// while the agent is already starting. The caller must call Wait.
func Start(spec Spec) (*Proc, error) {
	if err := checkDir(spec); err != nil {
		return nil, err
	}
	cmd := &exec.Cmd{Path: spec.Path, Args: spec.argv(), Env: spec.Env, Dir: spec.Dir}
	p := &Proc{cmd: cmd, inFd: -1, rawFd: -1, fwd: newForwarder(spec.PTY)}
	var err error
	if spec.PTY {
		err = p.startPTY(spec)
	} else {
		err = p.startInherited(spec)
	}
	if err != nil {
		p.fwd.abandon()
		return nil, err
	}
	return p, nil
}

// startInherited runs the child on the caller's own stdio, in the caller's process group.
func (p *Proc) startInherited(spec Spec) error {
	setStdio(p.cmd, spec)
	if err := p.cmd.Start(); err != nil {
		return newStartError(spec.Path, err)
	}
	p.fwd.begin(p.cmd.Process.Pid, p.Restore, nil)
	return nil
}

// Pid is the child's process id (and, in PTY mode, its process-group id).
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Wait waits for the child to exit, drains its output (at most drainTimeout after the exit
// when a grandchild keeps the PTY open), stops the stdin relay without consuming input,
// restores the terminal and stops signal forwarding. Calling it again returns the same result.
// The error is non-nil only when waiting itself failed; Status is then zero.
func (p *Proc) Wait() (Status, error) {
	p.waitOnce.Do(p.wait)
	return p.status, p.waitErr
}

func (p *Proc) wait() {
	waitExited(p.cmd.Process.Pid)
	p.fwd.childExited()
	err := p.cmd.Wait()
	if p.relay != nil {
		p.relay.finish(drainTimeout)
	}
	p.Restore()
	p.fwd.stop()
	p.closeInput()
	if p.cmd.ProcessState == nil {
		p.waitErr = fmt.Errorf("wait for %s: %w", p.cmd.Path, err)
		return
	}
	p.status = statusOf(p.cmd.ProcessState)
}

// Restore puts the user's terminal back into the mode it had before Start. It is idempotent
// and safe to call from a panic handler, before or after Wait.
func (p *Proc) Restore() {
	p.restore.Do(func() {
		if p.rawState != nil {
			_ = term.Restore(p.rawFd, p.rawState) // best effort: nothing better to do on failure
		}
	})
}

// setStdio hands the caller's files to the child. A nil file is left unset rather than stored
// as a typed nil, which exec would pass on as a closed descriptor.
func setStdio(cmd *exec.Cmd, spec Spec) {
	if spec.Stdin != nil {
		cmd.Stdin = spec.Stdin
	}
	if spec.Stdout != nil {
		cmd.Stdout = spec.Stdout
	}
	if spec.Stderr != nil {
		cmd.Stderr = spec.Stderr
	}
}
