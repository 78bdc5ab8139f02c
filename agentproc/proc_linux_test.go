//go:build linux

package agentproc

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestExitStatus(t *testing.T) {
	tests := []struct {
		name string
		mode string
		arg  string
		want Status
	}{
		{"zero", "exit", "0", Status{Code: 0}},
		{"three", "exit", "3", Status{Code: 3}},
		{"twenty-three", "exit", "23", Status{Code: 23}},
		{"sigterm", "killself", "TERM", Status{Code: 143, Signal: syscall.SIGTERM}},
		{"sigkill", "killself", "KILL", Status{Code: 137, Signal: syscall.SIGKILL}},
	}
	for _, tt := range tests {
		for _, usePTY := range []bool{false, true} {
			t.Run(tt.name+ptyName(usePTY), func(t *testing.T) {
				spec := helperSpec(t, tt.mode, tt.arg)
				spec.PTY = usePTY
				p, err := Start(spec)
				if err != nil {
					t.Fatalf("Start: %v", err)
				}
				if got := waitProc(t, p); got != tt.want {
					t.Errorf("status = %+v, want %+v", got, tt.want)
				}
				if again, _ := p.Wait(); again != tt.want {
					t.Errorf("second Wait = %+v, want the same %+v", again, tt.want)
				}
			})
		}
	}
}

func ptyName(usePTY bool) string {
	if usePTY {
		return "/pty"
	}
	return "/inherited"
}

func TestStartError(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("#!/bin/sh\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	tests := []struct {
		name   string
		spec   Spec
		code   int
		is     error
		hint   string
		naming string
	}{
		{"missing", Spec{Path: filepath.Join(dir, "nope")}, 127, fs.ErrNotExist, "install it", "nope"},
		{"not executable", Spec{Path: plain}, 126, fs.ErrPermission, "chmod +x", "plain"},
		{"directory", Spec{Path: dir}, 126, nil, "chmod +x", dir},
		{"bad dir", Spec{Path: exe, Dir: filepath.Join(dir, "gone")}, 125, fs.ErrNotExist, "cannot run", exe},
	}
	for _, tt := range tests {
		for _, usePTY := range []bool{false, true} {
			t.Run(tt.name+ptyName(usePTY), func(t *testing.T) {
				tt.spec.PTY = usePTY
				p, err := Start(tt.spec)
				if err == nil {
					_, _ = p.Wait()
					t.Fatal("Start succeeded, want an error")
				}
				var se *StartError
				if !errors.As(err, &se) {
					t.Fatalf("error %T %v is not a *StartError", err, err)
				}
				if se.ExitCode() != tt.code {
					t.Errorf("ExitCode = %d, want %d (%v)", se.ExitCode(), tt.code, err)
				}
				if tt.is != nil && !errors.Is(err, tt.is) {
					t.Errorf("errors.Is(%v, %v) = false", err, tt.is)
				}
				msg := err.Error()
				if !strings.Contains(msg, tt.naming) || !strings.Contains(msg, tt.hint) || strings.Contains(msg, "\n") {
					t.Errorf("message %q: want one line naming %q with %q", msg, tt.naming, tt.hint)
				}
			})
		}
	}
}

func TestIsTerminal(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	reg, err := os.CreateTemp(t.TempDir(), "f")
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	tests := []struct {
		name string
		f    *os.File
		want bool
	}{
		{"pty", u.tty, true},
		{"pipe", r, false},
		{"regular file", reg, false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		if got := IsTerminal(tt.f); got != tt.want {
			t.Errorf("IsTerminal(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestInheritedStdio checks that without a PTY the child writes straight to our files.
func TestInheritedStdio(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	spec := helperSpec(t, "ttycheck")
	spec.Stdout = w
	p, err := Start(spec)
	w.Close()
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	out := newScreen(r)
	if st := waitProc(t, p); st.Code != 0 {
		t.Fatalf("status %+v", st)
	}
	out.waitFor(t, "TTY stdin=false stdout=false")
}
