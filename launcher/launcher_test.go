package launcher

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/harness"
)

func TestParseChoice(t *testing.T) {
	tests := []struct {
		in     string
		n      int
		want   int
		wantOK bool
	}{
		{"", 3, 0, true},
		{"\n", 3, 0, true},
		{"1", 3, 0, true},
		{" 3 ", 3, 2, true},
		{"0", 3, -1, true},
		{"n", 3, -1, true},
		{"NEW", 3, -1, true},
		{"4", 3, 0, false},
		{"-1", 3, 0, false},
		{"yes", 3, 0, false},
		{"1.5", 3, 0, false},
	}
	for _, tt := range tests {
		got, ok := parseChoice(tt.in, tt.n)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("parseChoice(%q, %d) = %d, %v; want %d, %v", tt.in, tt.n, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestMergeEnv(t *testing.T) {
	base := []string{"A=1", "CLAUDE_CONFIG_DIR=", "CODEX_HOME=  ", "B=2", "AI_MEMORY_RUN_ID=old", "KEEP_BLANK="}
	got := mergeEnv(base, map[string]string{"AI_MEMORY_RUN_ID": "new", "Z": "z"}, []string{"CLAUDE_CONFIG_DIR", "CODEX_HOME"})
	want := []string{"A=1", "B=2", "KEEP_BLANK=", "AI_MEMORY_RUN_ID=new", "Z=z"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("mergeEnv = %q, want %q", got, want)
	}
}

func TestResolveExecutable(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "claude")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, _ := harness.Lookup("claude")
	found := func(string) (string, error) { return exe, nil }
	missing := func(string) (string, error) { return "", errors.New("not found") }
	tests := []struct {
		name     string
		override string
		look     func(string) (string, error)
		want     string
		code     int
	}{
		{"path lookup", "", found, exe, 0},
		{"missing on PATH", "", missing, "", CodeNotFound},
		{"explicit path", exe, missing, exe, 0},
		{"explicit missing path", filepath.Join(dir, "nope"), missing, "", CodeNotFound},
		{"not executable", plain, missing, "", CodeNoExec},
		{"directory", dir, missing, "", CodeNoExec},
		{"explicit bare name uses PATH", "claude-corp", found, exe, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resolveExecutable(h, tt.override, tt.look)
			var le *Error
			switch {
			case tt.code == 0 && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tt.code != 0 && (!errors.As(err, &le) || le.Code != tt.code):
				t.Fatalf("error %v, want code %d", err, tt.code)
			case got != tt.want:
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAge(t *testing.T) {
	for d, want := range map[time.Duration]string{
		10 * time.Second: "just now", 5 * time.Minute: "5m ago", 3 * time.Hour: "3h ago", 72 * time.Hour: "3d ago",
	} {
		if got := age(d); got != want {
			t.Errorf("age(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestResolveNeverRunsCheckoutFile: a same-named file in the working
// directory is never picked up through a relative PATH entry.
func TestResolveNeverRunsCheckoutFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "claude"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	t.Setenv("PATH", ".")
	h, _ := harness.Lookup("claude")
	got, err := resolveExecutable(h, "", defaultLookPath)
	var le *Error
	if !errors.As(err, &le) || le.Code != CodeNotFound {
		t.Fatalf("resolveExecutable = %q, %v; want not found", got, err)
	}
}
