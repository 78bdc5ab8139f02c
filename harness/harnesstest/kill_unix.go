//go:build unix

package harnesstest

import (
	"fmt"
	"strings"
	"syscall"
	"time"
)

var signalsByName = map[string]syscall.Signal{
	"HUP": syscall.SIGHUP, "INT": syscall.SIGINT, "QUIT": syscall.SIGQUIT, "ABRT": syscall.SIGABRT,
	"KILL": syscall.SIGKILL, "SEGV": syscall.SIGSEGV, "PIPE": syscall.SIGPIPE, "TERM": syscall.SIGTERM,
	"USR1": syscall.SIGUSR1, "USR2": syscall.SIGUSR2,
}

// killSelf sends the named signal (with or without "SIG") to this process
// and waits to die, as a crashing or killed agent would.
func killSelf(name string) error {
	sig, ok := signalsByName[strings.TrimPrefix(strings.ToUpper(name), "SIG")]
	if !ok {
		return fmt.Errorf("unknown signal %q", name)
	}
	if err := syscall.Kill(syscall.Getpid(), sig); err != nil {
		return fmt.Errorf("kill self: %w", err)
	}
	time.Sleep(5 * time.Second)
	return fmt.Errorf("still alive after %s", name)
}
