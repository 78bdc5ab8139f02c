//go:build linux

package agentproc

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/creack/pty"
)

// launcherCmd runs the test binary as a launcher (helperLauncher) whose child is the helper
// childMode; usePTY selects the PTY path inside that launcher.
func launcherCmd(t *testing.T, childMode string, usePTY bool, extraEnv ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), helperEnv+"=launcher", "AGENTPROC_CHILD="+childMode)
	if usePTY {
		cmd.Env = append(cmd.Env, "AGENTPROC_PTY=1")
	}
	cmd.Env = append(cmd.Env, extraEnv...)
	return cmd
}

// pipeScreen gives cmd a pipe for the given stream slot and collects what arrives on it.
func pipeScreen(t *testing.T, slot *any) *screen {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	*slot = w
	t.Cleanup(func() { _ = r.Close() })
	return newScreen(r)
}

// waitExit waits for a launcher process and returns its exit code, failing if a signal
// killed it (the launcher must survive the signals it forwards).
func waitExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("wait launcher: %v", err)
		}
		ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if ws.Signaled() {
			t.Fatalf("launcher killed by %v", ws.Signal())
		}
		return ws.ExitStatus()
	case <-deadlineC():
		_ = cmd.Process.Kill()
		t.Fatal("launcher did not exit")
	}
	return -1
}

// startWithStreams starts cmd after wiring stdout and stderr to collected pipes; the write
// ends are closed in the parent once the launcher holds them.
func startWithStreams(t *testing.T, cmd *exec.Cmd) (stdout, stderr *screen) {
	t.Helper()
	var so, se any
	if cmd.Stdout == nil {
		stdout = pipeScreen(t, &so)
		cmd.Stdout = so.(*os.File)
	}
	stderr = pipeScreen(t, &se)
	cmd.Stderr = se.(*os.File)
	if err := cmd.Start(); err != nil {
		t.Fatalf("start launcher: %v", err)
	}
	_ = se.(*os.File).Close()
	if so != nil {
		_ = so.(*os.File).Close()
	}
	return stdout, stderr
}

// TestLauncherForwardsSIGTERM: SIGTERM sent to the launcher reaches the child (which exits 7
// on it) and the launcher itself survives to report the child's code.
func TestLauncherForwardsSIGTERM(t *testing.T) {
	for _, usePTY := range []bool{false, true} {
		t.Run(ptyName(usePTY), func(t *testing.T) {
			cmd := launcherCmd(t, "termwait", usePTY)
			var out *screen
			if usePTY {
				u := newUserTerm(t, 24, 80)
				cmd.Stdin, cmd.Stdout, out = u.tty, u.tty, u.screen
			}
			stdout, stderr := startWithStreams(t, cmd)
			if out == nil {
				out = stdout
			}
			out.waitFor(t, "READY")
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			if code := waitExit(t, cmd); code != 7 {
				t.Errorf("launcher exit %d, want the child's 7; stderr %q", code, stderr.String())
			}
			out.waitFor(t, "GOT terminated")
			stderr.waitFor(t, "FWD terminated true")
		})
	}
}

// TestLauncherSIGINTWithoutTerminal: with inherited stdio and no controlling terminal, a
// SIGINT cannot have come from a keyboard, so it is forwarded.
func TestLauncherSIGINTWithoutTerminal(t *testing.T) {
	cmd := launcherCmd(t, "termwait", false)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	stdout, stderr := startWithStreams(t, cmd)
	stdout.waitFor(t, "READY")
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd); code != 5 {
		t.Errorf("launcher exit %d, want the child's 5; stderr %q", code, stderr.String())
	}
	stderr.waitFor(t, "FWD interrupt true")
}

// TestLauncherKeyboardSIGINTNotDoubled: with inherited stdio in the foreground of a terminal,
// Ctrl-C reaches launcher and child together; the launcher must not send a second one.
func TestLauncherKeyboardSIGINTNotDoubled(t *testing.T) {
	cmd := launcherCmd(t, "intcount", false)
	master, err := pty.Start(cmd) // the launcher leads a session with this terminal
	if err != nil {
		t.Fatal(err)
	}
	out := newScreen(master)
	t.Cleanup(func() { _ = master.Close() })
	out.waitFor(t, "READY")
	if _, err := master.Write([]byte{0x03}); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "INT 1")
	out.waitFor(t, "FWD interrupt false")
	if _, err := master.Write([]byte("q\r")); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd); code != 0 {
		t.Errorf("launcher exit %d, want 0; output %q", code, out.String())
	}
	if got := out.String(); strings.Contains(got, "INT 2") {
		t.Errorf("child got SIGINT twice: %q", got)
	}
}

// TestLauncherPanicRestoresTerminal: a panic inside a relay goroutine (injected through the
// output hook, after raw mode was set) still leaves the user's terminal as it was.
func TestLauncherPanicRestoresTerminal(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	before := termios(t, u.tty)
	cmd := launcherCmd(t, "ttycheck", true, "AGENTPROC_PANIC=1")
	cmd.Stdin, cmd.Stdout = u.tty, u.tty
	_, stderr := startWithStreams(t, cmd)
	if code := waitExit(t, cmd); code != 2 {
		t.Errorf("launcher exit %d, want 2 (Go panic)", code)
	}
	stderr.waitFor(t, "raw=true")
	stderr.waitFor(t, "panic: boom")
	if after := termios(t, u.tty); after != before {
		t.Errorf("terminal not restored after panic:\nbefore %+v\nafter  %+v", before, after)
	}
}

// TestLauncherSurvivesClosedStdout: in PTY mode with stdout a pipe whose reader went away,
// the relay's failed write must not kill the launcher by SIGPIPE (that would leave the user's
// terminal raw); the child's output is drained and its code returned.
func TestLauncherSurvivesClosedStdout(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	before := termios(t, u.tty)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	_ = r.Close()
	cmd := launcherCmd(t, "bigout", true)
	cmd.Stdin, cmd.Stdout = u.tty, w
	_, stderr := startWithStreams(t, cmd)
	_ = w.Close()
	if code := waitExit(t, cmd); code != 0 {
		t.Errorf("launcher exit %d, want the child's 0; stderr %q", code, stderr.String())
	}
	if after := termios(t, u.tty); after != before {
		t.Errorf("terminal not restored:\nbefore %+v\nafter  %+v", before, after)
	}
}
