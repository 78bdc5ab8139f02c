//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
)

// variant is one way of starting the agent.
type variant struct {
	name string
	argv []string
}

// sample is one run, measured from just before fork/exec: to the agent's
// first instruction (start), to its last one (exited), and to the exit of
// the command (wall).
type sample struct{ start, exited, wall time.Duration }

// interleave runs every variant once per round, alternating which goes
// first, so that load from other users of the machine hits all alike. The
// warmup rounds are not kept.
func interleave(sb *sandbox, vs []variant, c config) ([][]sample, error) {
	out := make([][]sample, len(vs))
	for round := 0; round < c.warmup+c.runs; round++ {
		for k := range vs {
			i := k
			if round%2 == 1 {
				i = len(vs) - 1 - k
			}
			s, err := sb.run(vs[i].argv, c.pty)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", vs[i].name, err)
			}
			if round >= c.warmup {
				out[i] = append(out[i], s)
			}
		}
	}
	return out, nil
}

// run starts argv in the sandbox's checkout and waits for it.
func (sb *sandbox) run(argv []string, withPTY bool) (sample, error) {
	for _, p := range []string{sb.stamp, sb.stamp + exitSuffix} {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return sample{}, fmt.Errorf("clear stamp: %w", err)
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = sb.repo, sb.env
	var out tail
	term, err := attach(cmd, withPTY, &out)
	if err != nil {
		return sample{}, err
	}
	t0 := monotonic()
	err = cmd.Start()
	if err == nil {
		err = cmd.Wait()
	}
	wall := monotonic() - t0
	term.close()
	if err != nil {
		return sample{}, fmt.Errorf("%v; output: %s", err, out.String())
	}
	started, err := readStamp(sb.stamp)
	if err != nil {
		return sample{}, err
	}
	exited, err := readStamp(sb.stamp + exitSuffix)
	if err != nil {
		return sample{}, err
	}
	return sample{start: started - t0, exited: exited - t0, wall: wall}, nil
}

func readStamp(path string) (time.Duration, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("the fake agent left no stamp: %w", err)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("read stamp: %w", err)
	}
	return time.Duration(n), nil
}

// terminal is the child's stdio: a fresh PTY whose output is drained, or
// /dev/null.
type terminal struct {
	ptmx, tty *os.File
	drained   chan struct{}
}

func attach(cmd *exec.Cmd, withPTY bool, out io.Writer) (*terminal, error) {
	if !withPTY {
		cmd.Stdout, cmd.Stderr = out, out // stdin stays /dev/null
		return &terminal{}, nil
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("open pty: %w", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 120}); err != nil {
		ptmx.Close()
		tty.Close()
		return nil, fmt.Errorf("size pty: %w", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	t := &terminal{ptmx: ptmx, tty: tty, drained: make(chan struct{})}
	go func() {
		defer close(t.drained)
		io.Copy(out, ptmx) // ends with EIO once every slave fd is closed
	}()
	return t, nil
}

func (t *terminal) close() {
	if t.ptmx == nil {
		return
	}
	t.tty.Close()
	select {
	case <-t.drained:
	case <-time.After(2 * time.Second): // a stray grandchild holds the tty
	}
	t.ptmx.Close()
}

// tail keeps the last 4 KiB written, for error messages. The PTY drain
// goroutine writes it while a timed-out run may read it.
type tail struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if t.buf.Len() > 8<<10 {
		t.buf.Next(t.buf.Len() - 4<<10)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(t.buf.String())
}
