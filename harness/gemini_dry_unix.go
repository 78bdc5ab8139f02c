//go:build unix

package harness

import (
	"io"
	"os/exec"
	"syscall"
	"time"

	"github.com/creack/pty"
)

// runDryStart starts exe under a pseudo-terminal (Gemini's TUI needs one;
// print mode does not mind), in its own session, waits until it has
// written a stable prompt to out, then kills its process group: nothing
// after the prompt is needed, so no turn is ever taken.
func runDryStart(exe string, argv, env []string, dir, out string, timeout time.Duration) (string, error) {
	cmd := exec.Command(exe, argv...)
	cmd.Env, cmd.Dir = env, dir
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		return "", err
	}
	go func() { _, _ = io.Copy(io.Discard, tty) }() // a full pty would block the child
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	text, err := waitStable(out, done, timeout)
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	<-done
	_ = tty.Close()
	return text, err
}
