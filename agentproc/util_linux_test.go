//go:build linux

package agentproc

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// hangGuard only stops a broken test from hanging forever; no assertion depends on timing.
const hangGuard = 20 * time.Second

// screen collects everything read from r (the user's side of a terminal or a pipe).
type screen struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{}
	done    chan struct{}
}

func newScreen(r io.Reader) *screen {
	s := &screen{changed: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		b := make([]byte, 64*1024)
		for {
			n, err := r.Read(b)
			s.mu.Lock()
			s.buf.Write(b[:n])
			s.mu.Unlock()
			select {
			case s.changed <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	return s
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// waitFor blocks until the collected output contains sub.
func (s *screen) waitFor(t *testing.T, sub string) string {
	t.Helper()
	guard := time.After(hangGuard)
	for {
		if out := s.String(); strings.Contains(out, sub) {
			return out
		}
		select {
		case <-s.changed:
		case <-guard:
			t.Fatalf("never saw %q; output so far: %q", sub, tail(s.String()))
		}
	}
}

func tail(s string) string {
	if len(s) > 400 {
		return "..." + s[len(s)-400:]
	}
	return s
}

// userTerm is a pseudo-terminal standing in for the user's terminal: the test types on and
// reads from master, the code under test gets tty as its stdin and stdout.
type userTerm struct {
	master, tty *os.File
	screen      *screen
}

func newUserTerm(t *testing.T, rows, cols uint16) *userTerm {
	t.Helper()
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open pty: %v", err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Rows: rows, Cols: cols}); err != nil {
		t.Fatalf("set size: %v", err)
	}
	u := &userTerm{master: master, tty: tty, screen: newScreen(master)}
	t.Cleanup(func() {
		_ = tty.Close() // the master then reads EIO and the screen goroutine ends
		<-u.screen.done
		_ = master.Close()
	})
	return u
}

func (u *userTerm) typeText(t *testing.T, s string) {
	t.Helper()
	if _, err := u.master.Write([]byte(s)); err != nil {
		t.Fatalf("type %q: %v", s, err)
	}
}

func termios(t *testing.T, f *os.File) unix.Termios {
	t.Helper()
	tio, err := unix.IoctlGetTermios(fdOf(f), unix.TCGETS)
	if err != nil {
		t.Fatalf("get termios: %v", err)
	}
	return *tio
}

// isCanonical reports whether the terminal on fd is in cooked (line) mode.
func isCanonical(fd int) bool {
	tio, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	return err == nil && tio.Lflag&unix.ICANON != 0
}

// helperSpec is a Spec that runs the test binary as the named helper.
func helperSpec(t *testing.T, mode string, args ...string) Spec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Spec{Path: exe, Args: args, Env: append(os.Environ(), helperEnv+"="+mode)}
}

// waitProc runs p.Wait under the hang guard.
func waitProc(t *testing.T, p *Proc) Status {
	t.Helper()
	type res struct {
		st  Status
		err error
	}
	ch := make(chan res, 1)
	go func() { st, err := p.Wait(); ch <- res{st, err} }()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatalf("Wait: %v", r.err)
		}
		return r.st
	case <-time.After(hangGuard):
		t.Fatal("Wait did not return")
	}
	return Status{}
}

func deadline() time.Time { return time.Now().Add(hangGuard) }

func deadlineC() <-chan time.Time { return time.After(hangGuard) }
