package harnesstest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/google/uuid"
)

// runHookMain is ai-memory's hook entry point, run by the fake Claude
// through the command line harness.Plan put in --settings.
func runHookMain() int {
	if err := harness.ClaudeSessionStartHook(os.Stdin, os.Stdout, os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func (f *fakeEnv) claudeTranscript(id string) string {
	return filepath.Join(f.home, ".claude", "projects", FoldCwd(f.cwd), id+".jsonl")
}

// byType returns the records of one type.
func byType(recs []map[string]any, typ string) []map[string]any {
	var out []map[string]any
	for _, r := range recs {
		if r["type"] == typ {
			out = append(out, r)
		}
	}
	return out
}

// assistantTexts returns the text blocks of assistant records.
func assistantTexts(recs []map[string]any) []string {
	var out []string
	for _, r := range byType(recs, "assistant") {
		for _, b := range r["message"].(map[string]any)["content"].([]any) {
			if b := b.(map[string]any); b["type"] == "text" {
				out = append(out, b["text"].(string))
			}
		}
	}
	return out
}

func TestFakeClaude_PrintNewSession(t *testing.T) {
	f := newFakeEnv(t)
	id := uuid.NewString()
	res := f.run(runClaude, "", false, "-p", "hello there", "--session-id", id)
	if res.code != 0 || res.stdout != "ACK: hello there\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.code, res.stdout, res.stderr)
	}
	recs := records(t, f.claudeTranscript(id))
	users := byType(recs, "user")
	if len(users) != 1 || users[0]["message"].(map[string]any)["content"] != "hello there" {
		t.Errorf("user records = %v", users)
	}
	for _, r := range append(users, byType(recs, "assistant")...) {
		for _, k := range []string{"sessionId", "cwd", "uuid", "parentUuid", "timestamp", "version", "gitBranch", "entrypoint"} {
			if _, ok := r[k]; !ok {
				t.Errorf("%s record lacks %s", r["type"], k)
			}
		}
		if r["sessionId"] != id || r["cwd"] != f.cwd || r["gitBranch"] != "main" || r["entrypoint"] != "sdk-cli" || r["version"] != ClaudeVersion {
			t.Errorf("record fields: %v", r)
		}
	}
	if got := assistantTexts(recs); len(got) != 1 || got[0] != "ACK: hello there" {
		t.Errorf("assistant texts = %q", got)
	}
	if len(byType(recs, "api-request")) == 0 || len(byType(recs, "queue-operation")) != 1 {
		t.Error("missing the 2.1.332 record types an importer must skip")
	}
	e := f.lastLog()
	if e.Harness != "claude" || e.SessionID != id || e.Env["AI_MEMORY_RUN_ID"] != "run-1" || e.Env["AI_MEMORY_WORKSTREAM_ID"] != "" || e.StdinTTY || e.Context != "" {
		t.Errorf("log entry = %+v", e)
	}
	if strings.Join(e.Argv, " ") != "-p hello there --session-id "+id {
		t.Errorf("log argv = %q", e.Argv)
	}
}

func TestFakeClaude_ToolTurnAndResume(t *testing.T) {
	f := newFakeEnv(t)
	id := uuid.NewString()
	if res := f.run(runClaude, "", false, "-p", "do RUN_TOOL now", "--session-id", id, "--dangerously-skip-permissions"); res.code != 0 {
		t.Fatalf("first run: %+v", res)
	}
	res := f.run(runClaude, "second prompt", false, "-p", "--resume", id)
	if res.code != 0 || res.stdout != "ACK: second prompt\n" {
		t.Fatalf("resume: %+v", res)
	}
	recs := records(t, f.claudeTranscript(id))
	want := []string{"TOOL_DONE: hello | ACK: do RUN_TOOL now", "ACK: second prompt"}
	if got := assistantTexts(recs); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("assistant texts = %q, want %q", got, want)
	}
	var toolUse, toolResult bool
	prev := any(nil)
	for _, r := range recs {
		if r["uuid"] == nil {
			continue
		}
		if r["parentUuid"] != prev {
			t.Errorf("parentUuid chain broken at %v", r["type"])
		}
		prev = r["uuid"]
		if r["type"] == "assistant" && strings.Contains(fmt.Sprint(r["message"]), "tool_use") {
			toolUse = true
		}
		if r["toolUseResult"] != nil {
			toolResult = true
		}
	}
	if !toolUse || !toolResult {
		t.Errorf("tool_use %v tool_result %v", toolUse, toolResult)
	}
}

func TestFakeClaude_Errors(t *testing.T) {
	f := newFakeEnv(t)
	used := uuid.NewString()
	if res := f.run(runClaude, "", false, "-p", "x", "--session-id", used); res.code != 0 {
		t.Fatal(res)
	}
	missing := uuid.NewString()
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"UnknownOption", []string{"-p", "x", "--frobnicate"}, "unknown option '--frobnicate'"},
		{"TwoPrompts", []string{"-p", "x", "y"}, "too many arguments"},
		{"ResumeMissing", []string{"-p", "x", "--resume", missing}, "No conversation found with session ID: " + missing},
		{"SessionInUse", []string{"-p", "x", "--session-id", used}, "is already in use"},
		{"BadSessionID", []string{"-p", "x", "--session-id", "nope"}, "Must be a valid UUID"},
		{"SessionIDWithResume", []string{"-p", "x", "--resume", used, "--session-id", missing}, "--fork-session"},
		{"NoPrompt", []string{"-p"}, "Input must be provided"},
		{"BadSettings", []string{"-p", "x", "--settings", "{nope"}, "Invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.run(runClaude, "", false, tt.args...)
			if res.code != 1 || !strings.Contains(res.stderr, tt.stderr) {
				t.Errorf("exit %d stderr %q; want 1 and %q", res.code, res.stderr, tt.stderr)
			}
		})
	}
	if _, err := os.Stat(f.claudeTranscript(missing)); !os.IsNotExist(err) {
		t.Error("a failed run created a transcript")
	}
}

func TestFakeClaude_ContinueAndFork(t *testing.T) {
	f := newFakeEnv(t)
	if res := f.run(runClaude, "", false, "-p", "--continue", "x"); res.code != 1 || !strings.Contains(res.stderr, "No conversation found to continue") {
		t.Errorf("continue with no sessions: %+v", res)
	}
	id := uuid.NewString()
	f.run(runClaude, "", false, "-p", "one", "--session-id", id)
	if res := f.run(runClaude, "", false, "-c", "-p", "two"); res.code != 0 {
		t.Fatal(res)
	}
	if got := assistantTexts(records(t, f.claudeTranscript(id))); len(got) != 2 {
		t.Errorf("continue did not append: %q", got)
	}
	forked := uuid.NewString()
	if res := f.run(runClaude, "", false, "-p", "three", "-r", id, "--fork-session", "--session-id", forked); res.code != 0 {
		t.Fatal(res)
	}
	if got := assistantTexts(records(t, f.claudeTranscript(forked))); len(got) != 3 {
		t.Errorf("fork has %q, want the copied history plus the new turn", got)
	}
}

func TestFakeClaude_PassthroughCommands(t *testing.T) {
	f := newFakeEnv(t)
	for _, args := range [][]string{{"--version"}, {"-v"}, {"--help"}, {"mcp", "list"}, {"doctor"}} {
		res := f.run(runClaude, "", false, args...)
		if res.code != 0 || res.stdout == "" {
			t.Errorf("%q: %+v", args, res)
		}
	}
	if res := f.run(runClaude, "", false, "--version"); res.stdout != "2.1.332 (Claude Code)\n" {
		t.Errorf("--version = %q", res.stdout)
	}
	if m, _ := filepath.Glob(filepath.Join(f.home, ".claude", "projects", "*", "*.jsonl")); len(m) != 0 {
		t.Errorf("utility runs wrote transcripts: %q", m)
	}
}

func TestFakeClaude_Interactive(t *testing.T) {
	f := newFakeEnv(t)
	f.termRows = 33
	id := uuid.NewString()
	res := f.run(runClaude, "first\nSIZE\nsecond RUN_TOOL\n/exit\nnever\n", true, "--session-id", id)
	if res.code != 0 {
		t.Fatal(res)
	}
	for _, want := range []string{"> ", "ACK: first", "33 80", "TOOL_DONE: hello", "claude --resume " + id} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, res.stdout)
		}
	}
	recs := records(t, f.claudeTranscript(id))
	if got := assistantTexts(recs); len(got) != 2 || recs[len(recs)-1]["entrypoint"] == "sdk-cli" {
		t.Errorf("interactive texts %q", got)
	}
	if !f.lastLog().StdinTTY {
		t.Error("log says stdin was not a TTY")
	}
}

func TestFakeClaude_Knobs(t *testing.T) {
	f := newFakeEnv(t)
	f.env["FAKE_EXIT"], f.env["FAKE_PARTIAL"], f.env["FAKE_SLEEP"], f.env["FAKE_SLOW"] = "3", "1", "1ms", "1"
	id := uuid.NewString()
	res := f.run(runClaude, "", false, "-p", "x", "--session-id", id)
	if res.code != 3 {
		t.Errorf("exit %d, want FAKE_EXIT=3", res.code)
	}
	data, _ := os.ReadFile(f.claudeTranscript(id))
	if len(data) == 0 || data[len(data)-1] == '\n' {
		t.Error("FAKE_PARTIAL left the last line terminated")
	}
	lines := strings.Count(string(data), "\n") + 1
	if len(f.sleeps) != lines {
		t.Errorf("slept %d times for %d records; want one per record gap plus one before exit", len(f.sleeps), lines)
	}
}
