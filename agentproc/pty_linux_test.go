//go:build linux

package agentproc

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// startOnTerm starts a helper under a PTY with the user terminal u as its stdin and stdout.
func startOnTerm(t *testing.T, u *userTerm, mode string, args ...string) *Proc {
	t.Helper()
	spec := helperSpec(t, mode, args...)
	spec.Stdin, spec.Stdout, spec.Stderr, spec.PTY = u.tty, u.tty, u.tty, true
	p, err := Start(spec)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); _, _ = p.Wait() }) // Kill is a no-op once reaped
	return p
}

func TestPTYChildSeesTerminal(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	p := startOnTerm(t, u, "ttycheck")
	if st := waitProc(t, p); st.Code != 0 {
		t.Fatalf("status %+v", st)
	}
	u.screen.waitFor(t, "TTY stdin=true stdout=true")
}

// TestPTYKeystrokesAndRestore types a line for the child and checks that the user's terminal
// is raw while the child runs and exactly as before once Wait returns.
func TestPTYKeystrokesAndRestore(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	before := termios(t, u.tty)
	p := startOnTerm(t, u, "echo")
	u.screen.waitFor(t, "READY")
	if during := termios(t, u.tty); during.Lflag&(unix.ICANON|unix.ECHO|unix.ISIG) != 0 {
		t.Errorf("user terminal not raw while the child runs: lflag %#x", during.Lflag)
	}
	u.typeText(t, "hello world\r")
	if st := waitProc(t, p); st.Code != 0 {
		t.Fatalf("status %+v", st)
	}
	u.screen.waitFor(t, "GOT hello world|")
	if after := termios(t, u.tty); after != before {
		t.Errorf("terminal not restored:\nbefore %+v\nafter  %+v", before, after)
	}
	p.Restore() // idempotent: must not re-apply anything
	if after := termios(t, u.tty); after != before {
		t.Errorf("second Restore changed the terminal")
	}
}

// TestPTYCtrlC sends the Ctrl-C byte: the child's own line discipline must turn it into SIGINT.
func TestPTYCtrlC(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	p := startOnTerm(t, u, "sigint")
	u.screen.waitFor(t, "READY")
	u.typeText(t, "\x03")
	if st := waitProc(t, p); st.Code != 0 {
		t.Fatalf("status %+v", st)
	}
	u.screen.waitFor(t, "GOT SIGINT")
}

// TestPTYResize checks the start size and that SIGWINCH to the launcher resizes the child.
func TestPTYResize(t *testing.T) {
	u := newUserTerm(t, 30, 100)
	p := startOnTerm(t, u, "winsize")
	u.screen.waitFor(t, "SIZE 30x100 ")
	u.screen.waitFor(t, "READY")
	if err := unix.IoctlSetWinsize(fdOf(u.master), unix.TIOCSWINSZ, &unix.Winsize{Row: 40, Col: 132}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGWINCH); err != nil {
		t.Fatal(err)
	}
	u.screen.waitFor(t, "SIZE 40x132 ")
	u.typeText(t, "q\r")
	if st := waitProc(t, p); st.Code != 0 {
		t.Fatalf("status %+v", st)
	}
}

// TestPTYFallbackSize: stdin is not a terminal, so the PTY gets 80x24 instead of 0x0.
func TestPTYFallbackSize(t *testing.T) {
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	defer inR.Close()
	defer outR.Close()
	defer outW.Close() // the relay writes through this very file until Wait returns
	spec := helperSpec(t, "winsize")
	spec.Stdin, spec.Stdout, spec.PTY = inR, outW, true
	p, err := Start(spec)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); _, _ = p.Wait() }) // Kill is a no-op once reaped
	out := newScreen(outR)
	out.waitFor(t, "SIZE 24x80 ")
	out.waitFor(t, "READY")
	fmt.Fprint(inW, "q\r")
	inW.Close()
	if st := waitProc(t, p); st.Code != 0 {
		t.Fatalf("status %+v", st)
	}
}

// TestPTYDrain: a child that writes a lot and exits at once loses no byte, and the stream
// ends by EIO (not by the drain bound).
func TestPTYDrain(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	p := startOnTerm(t, u, "bigout")
	if st := waitProc(t, p); st.Code != 0 {
		t.Fatalf("status %+v", st)
	}
	if p.relay.timedOut {
		t.Error("drain hit its bound although no grandchild held the PTY")
	}
	out := u.screen.waitFor(t, "END-MARKER")
	if n := strings.Count(out, "x"); n != bigOutSize {
		t.Errorf("got %d payload bytes, want %d", n, bigOutSize)
	}
}

// TestPTYGrandchildDoesNotHang: a grandchild that keeps the slave open must not block Wait;
// the child's own last output still arrives.
func TestPTYGrandchildDoesNotHang(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	p := startOnTerm(t, u, "grandchild")
	out := u.screen.waitFor(t, "PARENT-DONE")
	if m := regexp.MustCompile(`GRANDCHILD (\d+);`).FindStringSubmatch(out); m != nil {
		pid, _ := strconv.Atoi(m[1])
		t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	}
	if st := waitProc(t, p); st.Code != 0 {
		t.Fatalf("status %+v; output %q", st, tail(out))
	}
	if !p.relay.timedOut {
		t.Error("drain ended without its bound, so the grandchild did not hold the PTY: test is void")
	}
}

// TestPTYStdinNotStolen: after Wait, the next keystroke stays readable on the user's
// terminal; the stdin relay is gone and does not consume it.
func TestPTYStdinNotStolen(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	p := startOnTerm(t, u, "exit", "0")
	if st := waitProc(t, p); st.Code != 0 {
		t.Fatalf("status %+v", st)
	}
	u.typeText(t, "after\n")
	if err := u.tty.SetReadDeadline(deadline()); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, err := u.tty.Read(buf)
	if err != nil || string(buf[:n]) != "after\n" {
		t.Errorf("read %q, %v; want the keystrokes typed after Wait", buf[:n], err)
	}
}
