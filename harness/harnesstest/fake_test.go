package harnesstest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain lets a test re-run this binary as a fake CLI (for FAKE_KILL) or
// as ai-memory's Claude hook (for the end-to-end delivery test).
func TestMain(m *testing.M) {
	switch os.Getenv("HARNESSTEST_MAIN") {
	case "claude":
		os.Exit(FakeClaudeMain())
	case "codex":
		os.Exit(FakeCodexMain())
	case "hook":
		os.Exit(runHookMain())
	}
	os.Exit(m.Run())
}

// fakeEnv is a sandboxed HOME, repo working directory and log for one test.
type fakeEnv struct {
	t        *testing.T
	home     string
	cwd      string
	log      string
	env      map[string]string
	sleeps   []time.Duration
	termRows int
}

func newFakeEnv(t *testing.T) *fakeEnv {
	t.Helper()
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cwd := filepath.Join(home, "work", "my.repo")
	if err := os.MkdirAll(filepath.Join(cwd, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cwd, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f := &fakeEnv{t: t, home: home, cwd: cwd, log: filepath.Join(home, "fake.log"), termRows: 24}
	f.env = map[string]string{"HOME": home, "FAKE_HARNESS_LOG": f.log, "PATH": os.Getenv("PATH"),
		"AI_MEMORY_RUN_ID": "run-1", "AI_MEMORY_HARNESS": "x"}
	return f
}

// result is what one fake invocation produced.
type result struct {
	code           int
	stdout, stderr string
}

// run invokes main in-process with the sandbox environment.
func (f *fakeEnv) run(main func(invocation) int, stdin string, tty bool, args ...string) result {
	f.t.Helper()
	var stdout, stderr bytes.Buffer
	environ := os.Environ()
	for k, v := range f.env {
		environ = append(environ, k+"="+v)
	}
	inv := invocation{
		args: args, stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr,
		getenv: func(k string) string { return f.env[k] }, environ: environ, cwd: f.cwd,
		stdinTTY: tty, stdoutTTY: tty,
		termSize: func() (int, int, error) { return f.termRows, 80, nil },
		now:      time.Now, sleep: func(d time.Duration) { f.sleeps = append(f.sleeps, d) },
		kill: func(string) error { return nil },
	}
	code := main(inv)
	return result{code, stdout.String(), stderr.String()}
}

// lastLog returns the last line of the invocation log.
func (f *fakeEnv) lastLog() logEntry {
	f.t.Helper()
	lines := readLines(f.t, f.log)
	var e logEntry
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &e); err != nil {
		f.t.Fatalf("log line: %v", err)
	}
	return e
}

// readLines returns the lines of a file (the last one may be unterminated).
func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// records parses every line of a JSONL transcript.
func records(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("%s: bad line %q: %v", path, sc.Text(), err)
		}
		out = append(out, rec)
	}
	return out
}

func TestFoldCwd(t *testing.T) {
	tests := map[string]string{
		"/home/u/my.repo": "-home-u-my-repo",
		"/a_b/C-9/é":      "-a-b-C-9---",
		"relative/Path 2": "relative-Path-2",
		"":                "",
	}
	for in, want := range tests {
		if got := FoldCwd(in); got != want {
			t.Errorf("FoldCwd(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReplyFor(t *testing.T) {
	long := strings.Repeat("é", 50)
	tests := []struct{ prompt, tool, want string }{
		{"hello", "", "ACK: hello"},
		{long, "", "ACK: " + strings.Repeat("é", 40)},
		{"x RUN_TOOL", "hello", "TOOL_DONE: hello | ACK: x RUN_TOOL"},
	}
	for _, tt := range tests {
		if got := replyFor(tt.prompt, tt.tool); got != tt.want {
			t.Errorf("replyFor(%q, %q) = %q, want %q", tt.prompt, tt.tool, got, tt.want)
		}
	}
}

func TestKnobs(t *testing.T) {
	env := map[string]string{"FAKE_EXIT": "7", "FAKE_SLEEP": "2s", "FAKE_SLOW": "1", "FAKE_KILL": "TERM", "FAKE_PARTIAL": "1", "FAKE_HARNESS_LOG": "/l"}
	k, err := readKnobs(func(s string) string { return env[s] })
	want := knobs{log: "/l", exit: 7, sleep: 2 * time.Second, slow: true, kill: "TERM", partial: true}
	if err != nil || k != want {
		t.Errorf("readKnobs = %+v, %v; want %+v", k, err, want)
	}
	for _, bad := range []map[string]string{{"FAKE_EXIT": "x"}, {"FAKE_SLEEP": "5"}} {
		if _, err := readKnobs(func(s string) string { return bad[s] }); err == nil {
			t.Errorf("readKnobs(%v) accepted a bad value", bad)
		}
	}
}
