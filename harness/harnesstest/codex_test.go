package harnesstest

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

func TestFakeCodex_ExecJSON(t *testing.T) {
	f := newFakeEnv(t)
	res := f.run(runCodex, "", false, "exec", "--json", "--skip-git-repo-check", "hello RUN_TOOL", "--dangerously-bypass-approvals-and-sandbox")
	if res.code != 0 {
		t.Fatal(res)
	}
	var first struct {
		Type     string `json:"type"`
		ThreadID string `json:"thread_id"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(res.stdout, "\n", 2)[0]), &first); err != nil || first.Type != "thread.started" {
		t.Fatalf("first stdout line: %q (%v)", res.stdout, err)
	}
	path := f.codexRollout(first.ThreadID)
	if !regexp.MustCompile(`/sessions/\d{4}/\d{2}/\d{2}/rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-` + first.ThreadID + `\.jsonl$`).MatchString(path) {
		t.Errorf("rollout path %s", path)
	}
	recs := records(t, path)
	meta := recs[0]["payload"].(map[string]any)
	if recs[0]["type"] != "session_meta" || meta["id"] != first.ThreadID || meta["cwd"] != f.cwd || meta["originator"] != "codex_exec" || meta["cli_version"] != CodexVersion {
		t.Errorf("session_meta = %v", recs[0])
	}
	if meta["base_instructions"].(map[string]any)["text"] != codexDefaultBase {
		t.Errorf("base instructions = %v", meta["base_instructions"])
	}
	kinds := map[string]int{}
	for _, r := range recs {
		p := r["payload"].(map[string]any)
		kinds[r["type"].(string)+"/"+str(p["type"])+"/"+str(p["role"])]++
	}
	for _, want := range []string{"response_item/message/developer", "response_item/message/user", "response_item/message/assistant",
		"response_item/function_call/", "response_item/function_call_output/", "event_msg/item_completed/", "event_msg/token_count/", "event_msg/task_complete/", "turn_context//"} {
		if kinds[want] == 0 {
			t.Errorf("no %s record; have %v", want, kinds)
		}
	}
	if kinds["event_msg/user_message/"]+kinds["event_msg/agent_message/"] != 0 {
		t.Error("0.171 no longer writes event_msg user_message/agent_message")
	}
	if !strings.Contains(res.stdout, `"text":"TOOL_DONE: hello | ACK: hello RUN_TOOL"`) {
		t.Errorf("stdout = %s", res.stdout)
	}
}

func str(v any) string { s, _ := v.(string); return s }

func TestFakeCodex_ExecBannerAndResume(t *testing.T) {
	f := newFakeEnv(t)
	res := f.run(runCodex, "from stdin", false, "exec", "-")
	m := regexp.MustCompile(`session id: (\S+)`).FindStringSubmatch(res.stderr)
	if res.code != 0 || m == nil || res.stdout != "ACK: from stdin\n" {
		t.Fatalf("exec: %+v", res)
	}
	if res := f.run(runCodex, "", false, "exec", "resume", m[1], "again"); res.code != 0 || res.stdout != "ACK: again\n" {
		t.Fatalf("exec resume: %+v", res)
	}
	if res := f.run(runCodex, "", false, "exec", "resume", "--last", "third"); res.code != 0 || f.lastLog().SessionID != m[1] {
		t.Fatalf("exec resume --last: %+v", res)
	}
	users := 0
	for _, r := range records(t, f.codexRollout(m[1])) {
		if p := r["payload"].(map[string]any); p["type"] == "message" && p["role"] == "user" {
			users++
		}
	}
	if users != 4 { // environment context + three prompts
		t.Errorf("%d user messages, want 4", users)
	}
}

func TestFakeCodex_Errors(t *testing.T) {
	f := newFakeEnv(t)
	tests := []struct {
		name   string
		args   []string
		tty    bool
		code   int
		stderr string
	}{
		{"UnknownFlag", []string{"exec", "--frob", "x"}, false, 2, "unexpected argument '--frob'"},
		{"JSONOutsideExec", []string{"--json", "x"}, true, 2, "unexpected argument '--json'"},
		{"ResumeMissing", []string{"exec", "resume", "0190a0a0-0000-7000-8000-000000000000", "x"}, false, 1, "No saved session found"},
		{"NoPrompt", []string{"exec"}, false, 1, "No prompt provided"},
		{"InteractiveWithoutTTY", []string{"hello"}, false, 1, "stdin is not a terminal"},
		{"TwoPrompts", []string{"exec", "a", "b"}, false, 2, "unexpected argument 'b'"},
		{"MissingInstructionsFile", []string{"-c", "model_instructions_file=/nope", "exec", "x"}, false, 1, "model instructions file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.run(runCodex, "", tt.tty, tt.args...)
			if res.code != tt.code || !strings.Contains(res.stderr, tt.stderr) {
				t.Errorf("exit %d stderr %q; want %d and %q", res.code, res.stderr, tt.code, tt.stderr)
			}
		})
	}
}

func TestFakeCodex_InteractiveAndUtilities(t *testing.T) {
	f := newFakeEnv(t)
	res := f.run(runCodex, "two\nSIZE\n/quit\n", true, "--no-daemon", "one")
	if res.code != 0 || !strings.Contains(res.stdout, "ACK: one") || !strings.Contains(res.stdout, "ACK: two") || !strings.Contains(res.stdout, "24 80") {
		t.Fatalf("interactive: %+v", res)
	}
	id := f.lastLog().SessionID
	if !strings.Contains(res.stdout, "codex resume "+id) {
		t.Errorf("no resume hint in %q", res.stdout)
	}
	if res := f.run(runCodex, "/exit\n", true, "fork", id); res.code != 0 || f.lastLog().SessionID == id {
		t.Errorf("fork: %+v", res)
	}
	for _, args := range [][]string{{"--version"}, {"login"}, {"exec", "review"}, {"mcp", "list", "--json"}} {
		if res := f.run(runCodex, "", false, args...); res.code != 0 || res.stdout == "" {
			t.Errorf("%q: %+v", args, res)
		}
	}
	if res := f.run(runCodex, "", false, "--version"); res.stdout != "codex-cli 0.171.0\n" {
		t.Errorf("--version = %q", res.stdout)
	}
}

// TestFakeKill runs the fakes as real processes and checks FAKE_KILL kills
// them with the signal after the transcript was written.
func TestFakeKill(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"claude", "codex"} {
		home := t.TempDir()
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Args = append(cmd.Args[:1], "exec", "hi")
		if name == "claude" {
			cmd.Args = append(cmd.Args[:1], "-p", "hi")
		}
		cmd.Dir = home
		cmd.Env = append(os.Environ(), "HARNESSTEST_MAIN="+name, "HOME="+home, "FAKE_KILL=SIGTERM",
			"CLAUDE_CONFIG_DIR=", "CODEX_HOME=", "FAKE_HARNESS_LOG="+filepath.Join(home, "log"))
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("%s: %v", name, err)
		}
		ws := ee.Sys().(syscall.WaitStatus)
		if !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
			t.Errorf("%s: wait status %v, want killed by SIGTERM", name, ws)
		}
		pattern := filepath.Join(home, ".codex", "sessions", "*", "*", "*", "rollout-*.jsonl")
		if name == "claude" {
			pattern = filepath.Join(home, ".claude", "projects", "*", "*.jsonl")
		}
		if m, _ := filepath.Glob(pattern); len(m) == 0 {
			t.Errorf("%s: no transcript before the kill", name)
		}
	}
}
