package main

import (
	"testing"
)

func ptr(s string) *string { return &s }

func TestDecide(t *testing.T) {
	bash := tool{Name: "Bash", Schema: map[string]any{
		"type":       "object",
		"properties": map[string]any{"command": map[string]any{"type": "string"}},
		"required":   []any{"command"},
	}}
	long := "0123456789012345678901234567890123456789EXTRA"
	tests := []struct {
		name string
		c    conversation
		want reply
	}{
		{"ack", conversation{UserText: "hello"}, reply{Text: "ACK: hello"}},
		{"ack clipped to 40 runes", conversation{UserText: long}, reply{Text: "ACK: " + long[:40]}},
		{"run tool without shell tool answers text",
			conversation{UserText: "x RUN_TOOL", Tools: []tool{{Name: "Read"}}}, reply{Text: "ACK: x RUN_TOOL"}},
		{"run tool", conversation{UserText: "x RUN_TOOL", Tools: []tool{{Name: "Read"}, bash}},
			reply{Call: &toolCall{Name: "Bash", Arguments: `{"command":"echo hello"}`}}},
		{"tool result wins over RUN_TOOL", conversation{UserText: "x RUN_TOOL", Tools: []tool{bash}, ToolResult: ptr("hello\n")},
			reply{Text: "TOOL_DONE: hello | ACK: x RUN_TOOL"}},
		{"qwen shell block keeps the output only", conversation{UserText: "t", ToolResult: ptr("Command: echo hello\nDirectory: (root)\nOutput: hello\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: (none)")},
			reply{Text: "TOOL_DONE: hello | ACK: t"}},
		{"gemini shell block keeps the output only", conversation{UserText: "t", ToolResult: ptr("<untrusted_context>\nOutput: hello\nProcess Group PGID: 30321\n</untrusted_context>")},
			reply{Text: "TOOL_DONE: hello | ACK: t"}},
		{"omp wall time dropped", conversation{UserText: "t", ToolResult: ptr("hello\n\n\nWall time: 0.09 seconds")},
			reply{Text: "TOOL_DONE: hello | ACK: t"}},
		{"tool result clipped to 60", conversation{UserText: "t", ToolResult: ptr(long + long)},
			reply{Text: "TOOL_DONE: " + (long + long)[:60] + " | ACK: t"}},
		{"call tool by full name", conversation{UserText: `x CALL_TOOL mcp__ai-memory__search {"query":"w q"} please`, Tools: []tool{bash, {Name: "mcp__ai-memory__search"}}},
			reply{Call: &toolCall{Name: "mcp__ai-memory__search", Arguments: `{"query":"w q"}`}}},
		{"call tool by suffix in a namespace", conversation{UserText: `CALL_TOOL search {"limit":3}`, Tools: []tool{{Namespace: "mcp__ai_memory", Name: "search"}}},
			reply{Call: &toolCall{Namespace: "mcp__ai_memory", Name: "search", Arguments: `{"limit":3}`}}},
		{"call tool without arguments", conversation{UserText: "CALL_TOOL handoff", Tools: []tool{{Name: "mcp__ai-memory__handoff"}}},
			reply{Call: &toolCall{Name: "mcp__ai-memory__handoff", Arguments: `{}`}}},
		{"call tool not offered answers text", conversation{UserText: "CALL_TOOL nope {}", Tools: []tool{bash}},
			reply{Text: "ACK: CALL_TOOL nope {}"}},
		{"call tool result echoed", conversation{UserText: "CALL_TOOL search {}", ToolResult: ptr(`{"hits":[]}`)},
			reply{Text: `TOOL_DONE: {"hits":[]} | ACK: CALL_TOOL search {}`}},
		{"structured without schema", conversation{UserText: "t", Structured: true}, reply{Text: `{"text":"ACK: t"}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := decide(tt.c)
			if got.Text != tt.want.Text || (got.Call == nil) != (tt.want.Call == nil) ||
				(got.Call != nil && *got.Call != *tt.want.Call) {
				t.Errorf("decide = %+v (call %+v), want %+v (call %+v)", got, got.Call, tt.want, tt.want.Call)
			}
		})
	}
}

func TestUserTextSkipsInjectedBlocks(t *testing.T) {
	body := map[string]any{"messages": []any{
		map[string]any{"role": "user", "content": "first real"},
		map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "text", "text": "<!-- ai-memory:packet:v1 -->\nhistory"},
			map[string]any{"type": "text", "text": "  <system-reminder>r</system-reminder>"},
		}},
	}}
	if got := parseAnthropic(body).UserText; got != "first real" {
		t.Errorf("UserText = %q, want %q", got, "first real")
	}
}

func TestShellArguments(t *testing.T) {
	tests := []struct {
		name   string
		schema map[string]any
		want   string
	}{
		{"cmd string", map[string]any{"properties": map[string]any{"cmd": map[string]any{"type": "string"}}},
			`{"cmd":"echo hello"}`},
		{"command argv", map[string]any{"properties": map[string]any{"command": map[string]any{"type": "array"}}},
			`{"command":["bash","-lc","echo hello"]}`},
		{"nullable command", map[string]any{"properties": map[string]any{"command": map[string]any{"type": []any{"null", "string"}}}},
			`{"command":"echo hello"}`},
		{"required extras get zero values", map[string]any{
			"properties": map[string]any{"command": map[string]any{"type": "string"}, "timeout": map[string]any{"type": "integer"}, "why": map[string]any{"type": "string"}},
			"required":   []any{"command", "timeout", "why"}},
			`{"command":"echo hello","timeout":0,"why":""}`},
		{"no schema", nil, `{"command":"echo hello"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := shellArguments(tt.schema); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestStructuredText(t *testing.T) {
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"title": map[string]any{"type": "string"},
			"kind":  map[string]any{"type": "string", "enum": []any{"short", "long"}},
			"tags":  map[string]any{"type": "array"},
			"meta":  map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "number"}}},
		},
	}
	want := `{"kind":"short","meta":{"n":0},"tags":[],"title":"T"}`
	if got := structuredText(schema, "T"); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestClipCountsRunes(t *testing.T) {
	if got := clip("héllo wörld", 4); got != "héll" {
		t.Errorf("clip = %q", got)
	}
}

func TestStableID(t *testing.T) {
	a, b := stableID("x_", []byte("one")), stableID("x_", []byte("two"))
	if a == b || a != stableID("x_", []byte("one")) || len(a) != 2+24 {
		t.Errorf("ids %q %q", a, b)
	}
}

// TestHarnessDecorations: a context block in front of the prompt and
// status lines around a tool's output do not reach the reply.
func TestHarnessDecorations(t *testing.T) {
	body := map[string]any{"messages": []any{map[string]any{"role": "user",
		"content": "<current_datetime>2026-12-02T01:00:00+00:00</current_datetime>\n\nhello RUN_TOOL"}}}
	if got := parseChat(body).UserText; got != "hello RUN_TOOL" {
		t.Errorf("UserText = %q", got)
	}
	for in, want := range map[string]string{
		"hello\n<shellId: 0 completed with exit code 0>": "hello",
		"Wall time: 0.015 seconds\nhello\n":              "hello",
		"hello\n":                                        "hello",
	} {
		if got := oneLine(toolOutput(in)); got != want {
			t.Errorf("toolOutput(%q) = %q, want %q", in, got, want)
		}
	}
}
