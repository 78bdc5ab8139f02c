package main

import (
	"encoding/json"
	"strings"
	"testing"
)

const geminiShell = `{"functionDeclarations":[{"name":"run_shell_command","parametersJsonSchema":{"type":"object","properties":{"command":{"type":"string"},"description":{"type":"string"}},"required":["command"]}}]}`

// geminiPart decodes the first part of the first candidate of one reply.
func geminiPart(t *testing.T, data string) map[string]any {
	t.Helper()
	var r struct {
		Candidates []struct {
			Content struct {
				Role  string           `json:"role"`
				Parts []map[string]any `json:"parts"`
			} `json:"content"`
			FinishReason string `json:"finishReason"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal([]byte(data), &r); err != nil || len(r.Candidates) != 1 || len(r.Candidates[0].Content.Parts) != 1 {
		t.Fatalf("reply %q: %v", data, err)
	}
	if r.Candidates[0].Content.Role != "model" || r.Candidates[0].FinishReason != "STOP" {
		t.Fatalf("reply %q: want role model, finishReason STOP", data)
	}
	return r.Candidates[0].Content.Parts[0]
}

func TestGemini(t *testing.T) {
	srv, logPath := testServer(t)
	user := func(s string) string { return `{"role":"user","parts":[{"text":` + mustJSON(s) + `}]}` }
	tests := []struct {
		name, method, body string
		wantText, wantArgs string
	}{
		{"text skips session context", ":streamGenerateContent?alt=sse",
			`{"contents":[` + user("<session_context>\nThis is the Gemini CLI.</session_context>") + `,` + user("hello there") + `]}`,
			"ACK: hello there", ""},
		{"tool call from schema", ":streamGenerateContent?alt=sse",
			`{"tools":[` + geminiShell + `],"contents":[` + user("hello RUN_TOOL") + `]}`,
			"", `{"command":"echo hello","description":"Print hello"}`},
		{"tool result", ":streamGenerateContent?alt=sse",
			`{"tools":[` + geminiShell + `],"contents":[` + user("hello RUN_TOOL") +
				`,{"role":"model","parts":[{"functionCall":{"name":"run_shell_command","args":{"command":"echo hello"}}}]}` +
				`,{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{"output":"hello\n"}}}]}]}`,
			"TOOL_DONE: hello | ACK: hello RUN_TOOL", ""},
		{"non-streamed JSON output", ":generateContent",
			`{"contents":[` + user("classify") + `],"generationConfig":{"responseMimeType":"application/json","responseSchema":{"type":"OBJECT","properties":{"model_choice":{"type":"STRING","enum":["flash","pro"]}},"required":["model_choice"]}}}`,
			`{"model_choice":"flash"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, srv.URL+"/v1beta/models/gemini-2.5-pro"+tt.method, tt.body)
			if status != 200 {
				t.Fatalf("status %d: %s", status, body)
			}
			data := body
			if strings.Contains(tt.method, "stream") {
				evs := parseSSE(t, body)
				if len(evs) != 1 || evs[0].Name != "" {
					t.Fatalf("want one unnamed SSE event, got %+v", evs)
				}
				data = evs[0].Data
			}
			part := geminiPart(t, data)
			if tt.wantArgs != "" {
				fc, _ := part["functionCall"].(map[string]any)
				if fc["name"] != "run_shell_command" || mustJSON(fc["args"]) != tt.wantArgs {
					t.Fatalf("functionCall = %v, want args %s", part, tt.wantArgs)
				}
				return
			}
			if part["text"] != tt.wantText {
				t.Fatalf("text = %v, want %q", part["text"], tt.wantText)
			}
		})
	}
	status, body := post(t, srv.URL+"/v1beta/models/gemini-2.5-pro:countTokens", `{"contents":[]}`)
	if status != 200 || !strings.Contains(body, `"totalTokens"`) {
		t.Fatalf("countTokens: %d %s", status, body)
	}
	if n := len(readLog(t, logPath)); n != len(tests)+1 {
		t.Fatalf("%d log entries, want %d", n, len(tests)+1)
	}
}
