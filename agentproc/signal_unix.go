//go:build unix

package agentproc

import (
	"os"
	"os/signal"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// forwardedSignals are caught while the child runs so the launcher outlives it.
var forwardedSignals = []syscall.Signal{unix.SIGINT, unix.SIGTERM, unix.SIGHUP, unix.SIGQUIT}

// forwarder relays signals received by the launcher to the child; see the package doc for the
// rules. After childExited it swallows signals, so nothing reaches a recycled pid.
type forwarder struct {
	pid     int
	pty     bool
	resize  func()
	onPanic func()
	ch      chan os.Signal
	done    chan struct{}
	stopped chan struct{}

	mu     sync.Mutex
	exited bool
}

// newForwarder subscribes to the signals (SIGWINCH too in PTY mode) before the child starts,
// so a signal arriving during the start is held in the channel and forwarded by begin rather
// than killing the launcher.
func newForwarder(pty bool) *forwarder {
	f := &forwarder{pty: pty, ch: make(chan os.Signal, 8), done: make(chan struct{}),
		stopped: make(chan struct{})}
	signal.Notify(f.ch, subscribed(pty)...)
	return f
}

// begin starts forwarding to pid and applies the current size once, in case the terminal was
// resized before the subscription.
func (f *forwarder) begin(pid int, onPanic, resize func()) {
	f.pid, f.onPanic, f.resize = pid, onPanic, resize
	go f.loop()
	if resize != nil {
		resize()
	}
}

// abandon unsubscribes a forwarder whose child never started.
func (f *forwarder) abandon() { signal.Stop(f.ch) }

// subscribed lists the signals to catch. A signal the launcher was started with ignored (nohup)
// stays ignored: catching it would change what the user asked for.
func subscribed(pty bool) []os.Signal {
	var sigs []os.Signal
	for _, s := range forwardedSignals {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	if pty {
		// SIGPIPE: while the user's terminal is raw, a closed stdout pipe (`... | head`) must
		// make the relay's write fail, not kill the launcher before it restores the terminal.
		sigs = append(sigs, unix.SIGWINCH, unix.SIGPIPE)
	}
	return sigs
}

func (f *forwarder) loop() {
	defer close(f.stopped)
	defer func() {
		if v := recover(); v != nil {
			f.onPanic()
			panic(v)
		}
	}()
	for {
		select {
		case s := <-f.ch:
			f.handle(s.(syscall.Signal))
		case <-f.done:
			return
		}
	}
}

// testHookForward, when set by a test, learns what handle did with each signal.
var testHookForward func(sig syscall.Signal, forwarded bool)

func (f *forwarder) handle(sig syscall.Signal) {
	f.mu.Lock()
	defer f.mu.Unlock()
	forwarded := false
	switch {
	case f.exited, sig == unix.SIGPIPE:
	case sig == unix.SIGWINCH:
		f.resize()
	case f.pty:
		forwarded = unix.Kill(-f.pid, sig) == nil // the child leads its own process group
	case (sig == unix.SIGINT || sig == unix.SIGQUIT) && inForeground():
		// Keyboard-generated: the terminal delivered it to our whole group, child included.
	default:
		forwarded = unix.Kill(f.pid, sig) == nil // shares our group: the group would include us
	}
	if testHookForward != nil {
		testHookForward(sig, forwarded)
	}
}

// childExited is called once the child has exited but before it is reaped.
func (f *forwarder) childExited() {
	f.mu.Lock()
	f.exited = true
	f.mu.Unlock()
}

// stop unsubscribes; afterwards the signals have their default effect on the launcher again.
func (f *forwarder) stop() {
	signal.Stop(f.ch)
	close(f.done)
	<-f.stopped
}

// inForeground reports whether the launcher is in the foreground process group of its
// controlling terminal, i.e. whether keyboard signals reach its process group.
func inForeground() bool {
	fd, err := unix.Open("/dev/tty", unix.O_RDONLY|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false // no controlling terminal
	}
	defer unix.Close(fd)
	pgrp, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
	return err == nil && pgrp == unix.Getpgrp()
}
