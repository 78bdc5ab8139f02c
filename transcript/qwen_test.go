package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A Qwen Code 0.24.4 print run with a shell tool call, shapes as recorded by
// the real CLI (real-harnesses-wave2.md), plus a thought part and an
// injected user record.
const qwenRun = `{"uuid":"u1","parentUuid":null,"sessionId":"S","timestamp":"2026-12-01T10:00:00.000Z","type":"user","provenance":"real_user","cwd":"CWD","message":{"role":"user","parts":[{"text":"hello RUN_TOOL"}]}}
{"uuid":"s1","parentUuid":"u1","sessionId":"S","timestamp":"2026-12-01T10:00:00.100Z","type":"system","provenance":"system","subtype":"ui_telemetry","cwd":"CWD","systemPayload":{"uiEvent":{"event.name":"qwen-code.api_response"}}}
{"uuid":"a1","parentUuid":"s1","sessionId":"S","timestamp":"2026-12-01T10:00:01.000Z","type":"assistant","provenance":"assistant_output","cwd":"CWD","message":{"role":"model","parts":[{"text":"plan","thought":true},{"functionCall":{"id":"call_1","name":"run_shell_command","args":{"command":"echo hello"}}}]}}
{"uuid":"t1","parentUuid":"a1","sessionId":"S","timestamp":"2026-12-01T10:00:02.000Z","type":"tool_result","provenance":"tool_result","cwd":"CWD","message":{"role":"user","parts":[{"functionResponse":{"id":"call_1","name":"run_shell_command","response":{"output":"Command: echo hello\nOutput: hello"}}}]}}
{"uuid":"a2","parentUuid":"t1","sessionId":"S","timestamp":"2026-12-01T10:00:03.000Z","type":"assistant","provenance":"assistant_output","cwd":"CWD","message":{"role":"model","parts":[{"text":"TOOL_DONE: hello | ACK: hello RUN_TOOL"}]}}
{"uuid":"u2","parentUuid":"a2","sessionId":"S","timestamp":"2026-12-01T10:00:04.000Z","type":"user","provenance":"system","cwd":"CWD","message":{"role":"user","parts":[{"text":"<system-reminder>x"}]}}
`

func TestQwenReadAndDiscover(t *testing.T) {
	home := t.TempDir()
	cwd := t.TempDir()
	canon, _ := canonical(cwd)
	env := Env{Home: home, Getenv: func(string) string { return "" }}
	src := QwenSource()
	path := filepath.Join(home, ".qwen", "projects", qwenFold(canon), "chats", "S.jsonl")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, strings.ReplaceAll(qwenRun, "CWD", canon))
	ss, err := src.List(env, cwd, 0)
	if err != nil || len(ss) != 1 || ss[0].ID != "S" {
		t.Fatalf("List = %+v, %v", ss, err)
	}
	if s, ex, err := src.Find(env, "S"); ex != Present || err != nil || s.Path != path {
		t.Fatalf("Find = %+v %v %v", s, ex, err)
	}
	res := readAll(t, src, path, "", ReadOptions{})
	want := []struct{ kind, role, content string }{
		{KindMessage, RoleUser, "hello RUN_TOOL"},
		{KindToolCall, RoleAssistant, `run_shell_command: {"command":"echo hello"}`},
		{KindToolResult, RoleTool, "hello"}, // the shell report is metadata
		{KindMessage, RoleAssistant, "TOOL_DONE: hello | ACK: hello RUN_TOOL"},
	}
	if len(res.events) != len(want) {
		t.Fatalf("events = %+v", res.events)
	}
	for i, w := range want {
		if e := res.events[i]; e.Kind != w.kind || e.Role != w.role || e.Content != w.content {
			t.Errorf("event %d = %+v, want %+v", i, e, w)
		}
	}
	if len(res.losses) != 2 {
		t.Errorf("losses = %+v, want thought + injected", res.losses)
	}
}

func TestQwenStoreRootOverrides(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{nil, "/h/.qwen"},
		{map[string]string{"QWEN_HOME": "/q"}, "/q"},
		{map[string]string{"QWEN_HOME": "/q", "QWEN_RUNTIME_DIR": "/r"}, "/r"},
		{map[string]string{"QWEN_RUNTIME_DIR": "  "}, "/h/.qwen"},
	}
	for _, tt := range tests {
		env := Env{Home: "/h", Getenv: func(k string) string { return tt.env[k] }}
		if got := QwenSource().StoreRoot(env); got != filepath.FromSlash(tt.want) && got != tt.want {
			t.Errorf("%v: %s, want %s", tt.env, got, tt.want)
		}
	}
}

// TestQwenUserHookContext: a UserPromptSubmit hook's context, which Qwen
// appends to the user's message, is not imported; the typed text is,
// from the payload's displayText when there is one (as Qwen displays it).
func TestQwenUserHookContext(t *testing.T) {
	const hook = `"<qwen:user-prompt-submit-context>\nHOOK\n</qwen:user-prompt-submit-context>"`
	tests := []struct {
		name, rec, want string
		losses          int
	}{
		{"display text", `{"type":"user","uuid":"u","message":{"parts":[{"text":"typed"},{"text":` + hook + `}]},"systemPayload":{"displayText":"typed","hookContext":"HOOK"}}`, "typed", 1},
		{"trailing part", `{"type":"user","uuid":"u","message":{"parts":[{"text":"typed"},{"text":` + hook + `}]}}`, "typed", 1},
		{"lone part is the prompt", `{"type":"user","uuid":"u","message":{"parts":[{"text":` + hook + `}]}}`, "<qwen:user-prompt-submit-context>\nHOOK\n</qwen:user-prompt-submit-context>", 0},
		{"mid-turn message", `{"type":"user","subtype":"mid_turn_user_message","provenance":"real_user","uuid":"u","message":{"parts":[{"text":"typed"}]},"systemPayload":{"displayText":"typed"}}`, "typed", 0},
		{"goal runtime", `{"type":"user","subtype":"goal_runtime","provenance":"goal_runtime","uuid":"u","message":{"parts":[{"text":"x"}]}}`, "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.jsonl")
			writeFile(t, path, tt.rec+"\n")
			res := readAll(t, QwenSource(), path, "", ReadOptions{})
			var got []string
			for _, e := range res.events {
				got = append(got, e.Content)
			}
			if strings.Join(got, "|") != tt.want || len(res.losses) != tt.losses {
				t.Errorf("events %q, losses %v; want %q and %d losses", got, res.losses, tt.want, tt.losses)
			}
		})
	}
}
