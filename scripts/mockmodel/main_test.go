package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sseEvent is one parsed server-sent event.
type sseEvent struct {
	Name string
	Data string
}

func parseSSE(t *testing.T, body string) []sseEvent {
	t.Helper()
	var out []sseEvent
	for _, chunk := range strings.Split(strings.TrimSpace(body), "\n\n") {
		var ev sseEvent
		for _, line := range strings.Split(chunk, "\n") {
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.Name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.Data = strings.TrimPrefix(line, "data: ")
			default:
				t.Fatalf("unexpected SSE line %q", line)
			}
		}
		out = append(out, ev)
	}
	return out
}

func names(evs []sseEvent) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Name
	}
	return out
}

func decodeJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("decode %q: %v", s, err)
	}
	return m
}

// testServer starts the handler with a request log in a temp dir.
func testServer(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "requests.jsonl")
	l, err := openRequestLog(logPath)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(newServer(l))
	t.Cleanup(func() { srv.Close(); l.Close() })
	return srv, logPath
}

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer secret-key")
	req.Header.Set("X-Claude-Code-Session-Id", "sess-1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

func readLog(t *testing.T, path string) []logEntry {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []logEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e logEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		out = append(out, e)
	}
	return out
}

const bashTool = `{"name":"Bash","input_schema":{"type":"object","properties":{"command":{"type":"string"},"description":{"type":"string"},"timeout":{"type":"number"}},"required":["command"]}}`

func TestAnthropicStream(t *testing.T) {
	srv, _ := testServer(t)
	tests := []struct {
		name      string
		body      string
		wantText  string
		wantInput string
		wantStop  string
	}{
		{"text skips injected blocks",
			`{"model":"m","stream":true,"messages":[{"role":"user","content":[{"type":"text","text":"hello there"},{"type":"text","text":"<system-reminder>x</system-reminder>"}]}]}`,
			"ACK: hello there", "", "end_turn"},
		{"tool call from schema",
			`{"model":"m","stream":true,"tools":[` + bashTool + `],"messages":[{"role":"user","content":"hello RUN_TOOL"}]}`,
			"", `{"command":"echo hello","description":"Print hello"}`, "tool_use"},
		{"tool result",
			`{"model":"m","stream":true,"tools":[` + bashTool + `],"messages":[{"role":"user","content":"hello RUN_TOOL"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"hello\n"}]}]}`,
			"TOOL_DONE: hello | ACK: hello RUN_TOOL", "", "end_turn"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, srv.URL+"/v1/messages?beta=true", tt.body)
			if status != 200 {
				t.Fatalf("status %d: %s", status, body)
			}
			evs := parseSSE(t, body)
			want := []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"}
			if !slices.Equal(names(evs), want) {
				t.Fatalf("events %v, want %v", names(evs), want)
			}
			delta := obj(decodeJSON(t, evs[2].Data)["delta"])
			if got := str(delta["text"]); got != tt.wantText {
				t.Errorf("text %q, want %q", got, tt.wantText)
			}
			if got := str(delta["partial_json"]); got != tt.wantInput {
				t.Errorf("tool input %q, want %q", got, tt.wantInput)
			}
			stop := str(obj(decodeJSON(t, evs[4].Data)["delta"])["stop_reason"])
			if stop != tt.wantStop {
				t.Errorf("stop_reason %q, want %q", stop, tt.wantStop)
			}
		})
	}
}

func TestAnthropicJSONAndStructured(t *testing.T) {
	srv, _ := testServer(t)
	body := `{"model":"m","output_config":{"format":{"type":"json_schema","schema":{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}}},"messages":[{"role":"user","content":"name this session"}]}`
	status, out := post(t, srv.URL+"/messages", body)
	if status != 200 {
		t.Fatalf("status %d: %s", status, out)
	}
	msg := decodeJSON(t, out)
	block := obj(list(msg["content"])[0])
	if got, want := str(block["text"]), `{"title":"ACK: name this session"}`; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if str(msg["stop_reason"]) != "end_turn" || str(msg["type"]) != "message" {
		t.Errorf("unexpected message %v", msg)
	}
}

func TestCountTokens(t *testing.T) {
	srv, _ := testServer(t)
	status, out := post(t, srv.URL+"/v1/messages/count_tokens", `{"messages":[{"role":"user","content":"hi"}]}`)
	if status != 200 {
		t.Fatalf("status %d", status)
	}
	if n, ok := decodeJSON(t, out)["input_tokens"].(float64); !ok || n < 1 {
		t.Errorf("input_tokens = %v", decodeJSON(t, out)["input_tokens"])
	}
}

const execTool = `{"type":"function","name":"exec_command","parameters":{"type":"object","properties":{"cmd":{"type":"string"},"workdir":{"type":"string"}},"required":["cmd"]}}`

func TestResponsesStream(t *testing.T) {
	srv, _ := testServer(t)
	codexOutput := "Chunk ID: ab12\nWall time: 0.0012 seconds\nProcess exited with code 0\nOriginal token count: 1\nOutput:\nhello\n"
	tests := []struct {
		name     string
		body     string
		want     []string
		wantItem string
	}{
		{"text",
			`{"model":"mock-model","stream":true,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>x</environment_context>"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"hi codex"}]}]}`,
			[]string{"response.created", "response.in_progress", "response.output_item.added", "response.content_part.added", "response.output_text.delta", "response.output_text.done", "response.content_part.done", "response.output_item.done", "response.completed"},
			`{"annotations":[],"text":"ACK: hi codex","type":"output_text"}`},
		{"function call",
			`{"model":"mock-model","stream":true,"tools":[` + execTool + `],"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hello RUN_TOOL"}]}]}`,
			[]string{"response.created", "response.in_progress", "response.output_item.added", "response.function_call_arguments.delta", "response.function_call_arguments.done", "response.output_item.done", "response.completed"},
			`{"cmd":"echo hello"}`},
		{"tool result drops codex metadata",
			`{"model":"mock-model","stream":true,"tools":[` + execTool + `],"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hello RUN_TOOL"}]},{"type":"function_call","name":"exec_command","arguments":"{}","call_id":"c1"},{"type":"function_call_output","call_id":"c1","output":` + mustJSON(codexOutput) + `}]}`,
			nil,
			`{"annotations":[],"text":"TOOL_DONE: hello | ACK: hello RUN_TOOL","type":"output_text"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, srv.URL+"/v1/responses", tt.body)
			if status != 200 {
				t.Fatalf("status %d: %s", status, body)
			}
			evs := parseSSE(t, body)
			if tt.want != nil && !slices.Equal(names(evs), tt.want) {
				t.Fatalf("events %v, want %v", names(evs), tt.want)
			}
			done := obj(decodeJSON(t, evs[len(evs)-2].Data)["item"])
			got := str(done["arguments"])
			if done["type"] == "message" {
				got = mustJSON(list(done["content"])[0])
			}
			if got != tt.wantItem {
				t.Errorf("item %s, want %s", got, tt.wantItem)
			}
			completed := obj(decodeJSON(t, evs[len(evs)-1].Data)["response"])
			if str(completed["id"]) == "" || obj(completed["usage"])["total_tokens"] == nil {
				t.Errorf("response.completed lacks id or usage: %v", completed)
			}
		})
	}
}

func TestResponsesStructuredJSON(t *testing.T) {
	srv, _ := testServer(t)
	body := `{"model":"m","input":"make a title","text":{"format":{"type":"json_schema","name":"t","schema":{"type":"object","properties":{"title":{"type":"string"},"ok":{"type":"boolean"}},"required":["title","ok"]}}}}`
	_, out := post(t, srv.URL+"/responses", body)
	resp := decodeJSON(t, out)
	item := obj(list(resp["output"])[0])
	text := str(obj(list(item["content"])[0])["text"])
	if want := `{"ok":false,"title":"ACK: make a title"}`; text != want {
		t.Errorf("text %s, want %s", text, want)
	}
}

const chatBashArray = `{"type":"function","function":{"name":"bash","parameters":{"type":"object","properties":{"command":{"type":"array","items":{"type":"string"}}},"required":["command"]}}}`

func TestChatCompletions(t *testing.T) {
	srv, _ := testServer(t)
	tests := []struct {
		name       string
		body       string
		wantDelta  string
		wantFinish string
	}{
		{"stream tool call with argv schema",
			`{"model":"m","stream":true,"tools":[` + chatBashArray + `],"messages":[{"role":"system","content":"sys"},{"role":"user","content":"go RUN_TOOL"}]}`,
			`{"function":{"arguments":"{\"command\":[\"bash\",\"-lc\",\"echo hello\"]}","name":"bash"},"id":`, "tool_calls"},
		{"stream tool result",
			`{"model":"m","stream":true,"messages":[{"role":"user","content":[{"type":"text","text":"go RUN_TOOL"}]},{"role":"tool","tool_call_id":"c","content":"hello\n"}]}`,
			`"content":"TOOL_DONE: hello | ACK: go RUN_TOOL"`, "stop"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, body := post(t, srv.URL+"/v1/chat/completions", tt.body)
			evs := parseSSE(t, body)
			if len(evs) != 4 || evs[3].Data != "[DONE]" {
				t.Fatalf("want 3 chunks and [DONE], got %v", evs)
			}
			if !strings.Contains(evs[0].Data, tt.wantDelta) {
				t.Errorf("first chunk %s lacks %s", evs[0].Data, tt.wantDelta)
			}
			finish := str(obj(list(decodeJSON(t, evs[1].Data)["choices"])[0])["finish_reason"])
			if finish != tt.wantFinish {
				t.Errorf("finish_reason %q, want %q", finish, tt.wantFinish)
			}
		})
	}
}

func TestModelsHeadAndUnknown(t *testing.T) {
	srv, _ := testServer(t)
	tests := []struct {
		method, path string
		want         int
	}{
		{http.MethodGet, "/v1/models", 200},
		{http.MethodGet, "/models", 200},
		{http.MethodHead, "/", 200},
		{http.MethodGet, "/v1/unknown", 404},
		{http.MethodGet, "/v1/messages", 404},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, srv.URL+tt.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s %s: status %d, want %d", tt.method, tt.path, resp.StatusCode, tt.want)
		}
		if tt.path == "/v1/models" && !strings.Contains(string(b), `"id":"mock-model"`) {
			t.Errorf("models listing lacks mock-model: %s", b)
		}
	}
	if status, _ := post(t, srv.URL+"/v1/messages", "not json"); status != 400 {
		t.Errorf("bad JSON: status %d, want 400", status)
	}
}

// rawRequest sends a request line as a proxy client would and returns the
// status line of the answer.
func rawRequest(t *testing.T, addr, request string) string {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprint(conn, request)
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(line)
}

func TestPhoneHomeRefusedAndLogged(t *testing.T) {
	srv, logPath := testServer(t)
	addr := strings.TrimPrefix(srv.URL, "http://")
	requests := []string{
		"CONNECT raw.githubusercontent.com:443 HTTP/1.1\r\nHost: raw.githubusercontent.com:443\r\n\r\n",
		"GET http://example.com/update HTTP/1.1\r\nHost: example.com\r\n\r\n",
	}
	for _, r := range requests {
		if got := rawRequest(t, addr, r); !strings.Contains(got, "403") {
			t.Errorf("%q answered %q, want 403", strings.SplitN(r, "\r", 2)[0], got)
		}
	}
	entries := readLog(t, logPath)
	if len(entries) != 2 {
		t.Fatalf("%d log entries, want 2", len(entries))
	}
	for _, e := range entries {
		if !e.PhoneHome || e.Status != 403 {
			t.Errorf("entry %+v: want phone_home and 403", e)
		}
	}
	if entries[0].Host != "raw.githubusercontent.com:443" {
		t.Errorf("CONNECT host %q", entries[0].Host)
	}
}

func TestRequestLog(t *testing.T) {
	srv, logPath := testServer(t)
	post(t, srv.URL+"/v1/messages", "{\n  \"model\": \"m\",\n  \"messages\": [{\"role\":\"user\",\"content\":\"hi\"}]\n}")
	entries := readLog(t, logPath)
	if len(entries) != 1 {
		t.Fatalf("%d entries, want 1", len(entries))
	}
	e := entries[0]
	if e.Method != "POST" || e.Path != "/v1/messages" || e.Reply != "text ACK: hi" || e.Status != 200 {
		t.Errorf("entry %+v", e)
	}
	if got, want := string(e.Body), `{"model":"m","messages":[{"role":"user","content":"hi"}]}`; got != want {
		t.Errorf("body %s, want compacted %s", got, want)
	}
	if e.Headers["X-Claude-Code-Session-Id"] != "sess-1" {
		t.Errorf("session header not logged: %v", e.Headers)
	}
	if _, ok := e.Headers["Authorization"]; ok {
		t.Error("Authorization header was logged")
	}
	info, err := os.Stat(logPath)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("log mode %v (err %v), want 0600", info.Mode().Perm(), err)
	}
}

func TestWritePortFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "port")
	if err := writePortFile(path, 43210); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "43210\n" {
		t.Errorf("port file %q, %v", b, err)
	}
	if err := writePortFile(filepath.Join(t.TempDir(), "missing", "port"), 1); err == nil {
		t.Error("want error for a missing directory")
	}
}

func TestParseFlags(t *testing.T) {
	o, err := parseFlags([]string{"-addr", "127.0.0.1:9", "-port-file", "p", "-log", "l"})
	if err != nil || o.addr != "127.0.0.1:9" || o.portFile != "p" || o.logPath != "l" {
		t.Errorf("got %+v, %v", o, err)
	}
	if _, err := parseFlags([]string{"extra"}); err == nil {
		t.Error("want error for a positional argument")
	}
}
