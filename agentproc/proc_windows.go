//go:build windows

package agentproc

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
)

// Proc is a running child. Windows has no PTY support here: the child always inherits the
// console, which delivers Ctrl-C to it directly.
type Proc struct {
	cmd      *exec.Cmd
	sigs     chan os.Signal
	waitOnce sync.Once
	status   Status
	waitErr  error
}

// Start starts the child on the caller's stdio (Spec.PTY is ignored) and returns at once.
func Start(spec Spec) (*Proc, error) {
	if err := checkDir(spec); err != nil {
		return nil, err
	}
	cmd := &exec.Cmd{Path: spec.Path, Args: spec.argv(), Env: spec.Env, Dir: spec.Dir}
	if spec.Stdin != nil {
		cmd.Stdin = spec.Stdin
	}
	if spec.Stdout != nil {
		cmd.Stdout = spec.Stdout
	}
	if spec.Stderr != nil {
		cmd.Stderr = spec.Stderr
	}
	if err := cmd.Start(); err != nil {
		return nil, newStartError(spec.Path, err)
	}
	// The console sends Ctrl-C and close events to every attached process, the child
	// included; the launcher only has to survive them.
	p := &Proc{cmd: cmd, sigs: make(chan os.Signal, 4)}
	signal.Notify(p.sigs, os.Interrupt, syscall.SIGTERM)
	return p, nil
}

// Pid is the child's process id.
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Wait waits for the child and stops catching console signals.
func (p *Proc) Wait() (Status, error) {
	p.waitOnce.Do(func() {
		err := p.cmd.Wait()
		signal.Stop(p.sigs)
		if p.cmd.ProcessState == nil {
			p.waitErr = fmt.Errorf("wait for %s: %w", p.cmd.Path, err)
			return
		}
		p.status = Status{Code: p.cmd.ProcessState.ExitCode()}
	})
	return p.status, p.waitErr
}

// Restore is a no-op on Windows: the console mode is never changed.
func (p *Proc) Restore() {}
