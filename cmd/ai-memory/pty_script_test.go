//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/term"
)

func init() { scriptCmds["ptyrun"] = cmdPtyRun }

// cmdPtyRun runs a command with stdin, stdout and stderr on a fresh
// pseudo-terminal, as a person's terminal would be, driven by a dialogue
// file of steps (one per line):
//
//	wait TEXT      wait (10 s max) until the output so far contains TEXT
//	send TEXT      type TEXT followed by Enter
//	type TEXT      type TEXT without Enter (\x03 etc. are unquoted)
//	resize ROWS COLS
//	sleep MS
//	eof            type Ctrl-D
//
// The terminal's output becomes the script's stdout; the command's exit
// code must be 0 unless negated. Usage: ptyrun DIALOGUE command [args...]
func cmdPtyRun(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: ptyrun DIALOGUE command [args...]")
	}
	steps, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	path, err := exec.LookPath(args[1])
	if err != nil {
		path = ts.MkAbs(args[1])
	}
	cmd := exec.Command(path, args[2:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = scriptEnv(ts)
	ptmx, tty, err := pty.Open()
	ts.Check(err)
	defer ptmx.Close()
	ts.Check(pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 80}))
	before, err := term.GetState(int(tty.Fd()))
	ts.Check(err)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	ts.Check(cmd.Start())
	out := &lockedBuffer{}
	copied := make(chan struct{})
	go func() { io.Copy(out, ptmx); close(copied) }()
	derr := runDialogue(ptmx, out, string(steps))
	// A failed dialogue (a prompt that never came) leaves the command
	// waiting for input it will never get: give it a moment, then kill it.
	limit := ptyExitTimeout
	if derr != nil {
		limit = 2 * time.Second
	}
	werr, hung := waitBounded(cmd, limit)
	after, err := term.GetState(int(tty.Fd()))
	ts.Check(err)
	tty.Close()
	select {
	case <-copied:
	case <-time.After(2 * time.Second):
	}
	ts.Logf("[pty output]\n%s", out.String())
	fmt.Fprint(ts.Stdout(), out.String())
	if hung && derr == nil {
		ts.Fatalf("ptyrun: the command was still running %s after the dialogue ended (killed)", limit)
	}
	if !reflect.DeepEqual(before, after) {
		ts.Fatalf("ptyrun: terminal modes were not restored after the command exited")
	}
	if derr != nil {
		ts.Fatalf("ptyrun dialogue: %v", derr)
	}
	if werr != nil && !neg {
		ts.Fatalf("ptyrun: %v", werr)
	}
	if werr == nil && neg {
		ts.Fatalf("ptyrun: unexpected success")
	}
}

// ptyExitTimeout bounds the wait for the command after its dialogue, so a
// command that waits for input the dialogue never sends fails the script
// with its output instead of hanging the test binary.
const ptyExitTimeout = 30 * time.Second

// waitBounded waits for cmd up to d, then kills its process group (it is a
// session leader) and reports hung.
func waitBounded(cmd *exec.Cmd, d time.Duration) (err error, hung bool) {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err, false
	case <-time.After(d):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		return <-done, true
	}
}

func runDialogue(f *os.File, out *lockedBuffer, steps string) error {
	sc := bufio.NewScanner(strings.NewReader(steps))
	for sc.Scan() {
		verb, arg, _ := strings.Cut(sc.Text(), " ")
		if err := dialogueStep(f, out, verb, arg); err != nil {
			return err
		}
	}
	return nil
}

func dialogueStep(f *os.File, out *lockedBuffer, verb, arg string) error {
	switch verb {
	case "", "#":
		return nil
	case "wait":
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(out.String(), arg) {
			if time.Now().After(deadline) {
				return fmt.Errorf("timed out waiting for %q", arg)
			}
			time.Sleep(20 * time.Millisecond)
		}
		return nil
	case "send", "type":
		s, err := strconv.Unquote(`"` + arg + `"`)
		if err != nil {
			return err
		}
		if verb == "send" {
			s += "\r"
		}
		_, err = f.WriteString(s)
		return err
	case "resize":
		var r, c uint16
		if _, err := fmt.Sscanf(arg, "%d %d", &r, &c); err != nil {
			return err
		}
		return pty.Setsize(f, &pty.Winsize{Rows: r, Cols: c})
	case "sleep":
		ms, err := strconv.Atoi(arg)
		time.Sleep(time.Duration(ms) * time.Millisecond)
		return err
	case "eof":
		_, err := f.Write([]byte{4})
		return err
	}
	return errors.New("unknown dialogue step " + verb)
}

func scriptEnv(ts *testscript.TestScript) []string {
	var env []string
	for _, k := range scriptEnvKeys {
		if v := ts.Getenv(k); v != "" || k == "CLAUDE_CONFIG_DIR" || k == "CODEX_HOME" {
			env = append(env, k+"="+v)
		}
	}
	return append(env, "TERM=xterm")
}

// scriptEnvKeys are the variables a ptyrun command inherits from the script.
var scriptEnvKeys = []string{"PATH", "HOME", "AI_MEMORY_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME",
	"CLAUDE_CONFIG_DIR", "CODEX_HOME", "FAKE_HARNESS_LOG", "FAKE_EXIT", "FAKE_SLEEP", "FAKE_SLOW",
	"FAKE_KILL", "FAKE_PARTIAL", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
	"GIT_COMMITTER_EMAIL", "GIT_CONFIG_NOSYSTEM", "TMPDIR", "AI_MEMORY_MCP", "AI_MEMORY_LEDGER"}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
