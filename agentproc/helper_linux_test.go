//go:build linux

package agentproc

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/term"
)

// The test binary doubles as every child process (the helper-process pattern): with
// AGENTPROC_HELPER set, TestMain runs the named helper instead of the tests.
const helperEnv = "AGENTPROC_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// helpers maps a mode to a child behaviour; each returns the exit code.
var helpers = map[string]func(args []string) int{
	"exit":       func(a []string) int { n, _ := strconv.Atoi(a[0]); return n },
	"killself":   helperKillSelf,
	"ttycheck":   helperTTYCheck,
	"echo":       helperEcho,
	"sigint":     helperSigint,
	"winsize":    helperWinsize,
	"bigout":     helperBigOut,
	"grandchild": helperGrandchild,
	"sleeper":    helperSleeper,
	"termwait":   helperTermWait,
	"intcount":   helperIntCount,
	"launcher":   helperLauncher,
}

func runHelper(mode string, args []string) int {
	h, ok := helpers[mode]
	if !ok {
		fmt.Fprintf(os.Stderr, "unknown helper %q\n", mode)
		return 99
	}
	return h(args)
}

func helperKillSelf(a []string) int {
	sig := map[string]syscall.Signal{"TERM": syscall.SIGTERM, "KILL": syscall.SIGKILL}[a[0]]
	signal.Reset(sig)
	_ = syscall.Kill(os.Getpid(), sig)
	select {} // the signal ends us
}

func helperTTYCheck([]string) int {
	fmt.Printf("TTY stdin=%v stdout=%v\n", term.IsTerminal(0), term.IsTerminal(1))
	return 0
}

func helperEcho([]string) int {
	fmt.Println("READY")
	line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	fmt.Printf("GOT %s|\n", strings.TrimSpace(line))
	return 0
}

func helperSigint([]string) int {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT)
	fmt.Println("READY")
	<-ch
	fmt.Println("GOT SIGINT")
	return 0
}

// helperWinsize prints its size at start and on every SIGWINCH, and exits on a line of input.
func helperWinsize([]string) int {
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, syscall.SIGWINCH)
	printSize := func() {
		r, c, err := pty.Getsize(os.Stdin)
		fmt.Printf("SIZE %dx%d err=%v\n", r, c, err)
	}
	printSize()
	fmt.Println("READY")
	go func() {
		for range ch {
			printSize()
		}
	}()
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	return 0
}

// bigOutSize bytes of 'x' (no newline, so the PTY does not translate anything) then a marker.
const bigOutSize = 1 << 20

func helperBigOut([]string) int {
	_, _ = os.Stdout.Write([]byte(strings.Repeat("x", bigOutSize) + "END-MARKER"))
	return 0
}

// helperGrandchild leaves a SIGHUP-immune grandchild holding the PTY slave, then exits.
// helperGrandchild leaves a grandchild holding the PTY. It exits only once
// the grandchild ignores SIGHUP: the session leader's exit hangs up the
// terminal, and a grandchild still starting (a Go process takes several ms
// on a slow machine) would die of it and leave the test void.
func helperGrandchild([]string) int {
	exe, _ := os.Executable()
	ready, readyW, err := os.Pipe()
	if err != nil {
		fmt.Println("PIPE FAILED", err)
		return 1
	}
	gc := exec.Command(exe)
	gc.Env = append(os.Environ(), helperEnv+"=sleeper")
	gc.Stdin, gc.Stdout, gc.Stderr = os.Stdin, os.Stdout, os.Stderr
	gc.ExtraFiles = []*os.File{readyW} // fd 3
	if err := gc.Start(); err != nil {
		fmt.Println("START FAILED", err)
		return 1
	}
	readyW.Close()
	if _, err := ready.Read(make([]byte, 1)); err != nil {
		fmt.Println("GRANDCHILD NOT READY", err)
		return 1
	}
	fmt.Printf("GRANDCHILD %d;\nPARENT-DONE\n", gc.Process.Pid)
	return 0
}

func helperSleeper([]string) int {
	signal.Ignore(syscall.SIGHUP)
	if ready := os.NewFile(3, "ready"); ready != nil { // set by helperGrandchild
		ready.Write([]byte{1})
		ready.Close()
	}
	time.Sleep(time.Minute)
	return 0
}

func helperTermWait([]string) int {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGINT)
	fmt.Println("READY")
	s := <-ch
	fmt.Printf("GOT %v\n", s)
	if s == syscall.SIGINT {
		return 5
	}
	return 7
}

// helperIntCount counts SIGINTs until it reads a line, then reports the total.
func helperIntCount([]string) int {
	ch := make(chan os.Signal, 8)
	signal.Notify(ch, syscall.SIGINT)
	fmt.Println("READY")
	n := 0
	go func() {
		for range ch {
			n++
			fmt.Printf("INT %d\n", n)
		}
	}()
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	return 0
}

// helperLauncher plays the launcher: it runs the child named by AGENTPROC_CHILD through
// Start+Wait on its own stdio and exits with the child's status code.
func helperLauncher(args []string) int {
	if os.Getenv("AGENTPROC_PANIC") != "" {
		testHookOutput = func([]byte) {
			st, _ := term.GetState(0)
			fmt.Fprintf(os.Stderr, "raw=%v\n", st != nil && !isCanonical(0))
			panic("boom")
		}
	}
	testHookForward = func(sig syscall.Signal, fwd bool) {
		fmt.Fprintf(os.Stderr, "FWD %v %v\n", sig, fwd)
	}
	exe, _ := os.Executable()
	p, err := Start(Spec{
		Path: exe, Args: args,
		Env:   append(os.Environ(), helperEnv+"="+os.Getenv("AGENTPROC_CHILD")),
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		PTY: os.Getenv("AGENTPROC_PTY") != "",
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 125
	}
	st, err := p.Wait()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 125
	}
	return st.Code
}
