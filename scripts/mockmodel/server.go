package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// maxBody bounds a request body; real harness requests are a few hundred KB.
const maxBody = 64 << 20

// handlerFunc answers one routed request and returns the HTTP status and a
// one-line reply summary for the log.
type handlerFunc func(w http.ResponseWriter, body []byte) (int, string)

// route matches a method and a path suffix, so base URLs with or without
// /v1 (or any other prefix) all work.
type route struct {
	method string
	suffix string
	handle handlerFunc
}

// routes are tried in order; longer suffixes that share an ending come first.
var routes = []route{
	{http.MethodPost, "/messages/count_tokens", countTokens},
	{http.MethodPost, "/messages", jsonHandler(parseAnthropic, writeAnthropic)},
	{http.MethodPost, "/responses", jsonHandler(parseResponses, writeResponses)},
	{http.MethodPost, "/chat/completions", jsonHandler(parseChat, writeChat)},
	{http.MethodGet, "/models", listModels},
}

type server struct{ log *requestLog }

func newServer(log *requestLog) http.Handler { return &server{log: log} }

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	e := newEntry(r, body)
	switch {
	case err != nil:
		e.Status, e.Reply = writeError(w, http.StatusBadRequest, "read body: "+err.Error())
	case r.Method == http.MethodConnect || r.URL.IsAbs():
		e.PhoneHome = true
		e.Status, e.Reply = writeError(w, http.StatusForbidden, "outbound traffic is refused by the mock model server")
	default:
		e.Status, e.Reply = dispatch(w, r, body)
	}
	s.log.write(e)
}

func dispatch(w http.ResponseWriter, r *http.Request, body []byte) (int, string) {
	path := strings.TrimRight(r.URL.Path, "/")
	if path == "" && (r.Method == http.MethodHead || r.Method == http.MethodGet) {
		w.WriteHeader(http.StatusOK)
		return http.StatusOK, "ok"
	}
	for _, rt := range routes {
		if r.Method == rt.method && strings.HasSuffix(path, rt.suffix) {
			return rt.handle(w, body)
		}
	}
	return writeError(w, http.StatusNotFound, fmt.Sprintf("no mock route for %s %s", r.Method, r.URL.Path))
}

// jsonHandler decodes the body, applies the reply rule and writes the reply
// in the route's wire format.
func jsonHandler(parse func(map[string]any) conversation,
	write func(http.ResponseWriter, conversation, reply, []byte) error) handlerFunc {
	return func(w http.ResponseWriter, body []byte) (int, string) {
		var req map[string]any
		if err := json.Unmarshal(body, &req); err != nil {
			return writeError(w, http.StatusBadRequest, "request body is not a JSON object: "+err.Error())
		}
		c := parse(req)
		rep := decide(c)
		if err := write(w, c, rep, body); err != nil {
			return http.StatusOK, rep.summary() + " (write failed: " + err.Error() + ")"
		}
		return http.StatusOK, rep.summary()
	}
}

// countTokens answers Anthropic's token counting with a size-based estimate.
func countTokens(w http.ResponseWriter, body []byte) (int, string) {
	n := estimateTokens(len(body))
	writeJSON(w, map[string]any{"input_tokens": n})
	return http.StatusOK, fmt.Sprintf("count_tokens %d", n)
}

// listModels serves one model in the OpenAI ("data") and Anthropic
// ("data" + has_more) shapes at once, plus a Gemini-style "models" list.
func listModels(w http.ResponseWriter, _ []byte) (int, string) {
	writeJSON(w, map[string]any{
		"object": "list",
		"data": []any{map[string]any{
			"id": mockModel, "object": "model", "type": "model", "created": 0,
			"owned_by": "mock", "display_name": "Mock Model", "created_at": "2025-01-01T00:00:00Z",
		}},
		"has_more": false, "first_id": mockModel, "last_id": mockModel,
		"models": []any{map[string]any{
			"name": "models/" + mockModel, "displayName": "Mock Model",
			"supportedGenerationMethods": []string{"generateContent", "countTokens"},
		}},
	})
	return http.StatusOK, "models"
}

// mockModel is the model name reported when a request names none.
const mockModel = "mock-model"

func modelOr(c conversation) string {
	if c.Model != "" {
		return c.Model
	}
	return mockModel
}

// estimateTokens is a rough 4-bytes-per-token size estimate; harnesses only
// display it.
func estimateTokens(n int) int { return n/4 + 1 }

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, mustJSON(v))
}

func writeError(w http.ResponseWriter, status int, msg string) (int, string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, mustJSON(map[string]any{
		"type":  "error",
		"error": map[string]any{"type": "mock_error", "message": msg},
	}))
	return status, "error " + msg
}

// sse writes server-sent events and flushes after each one, so the harness
// sees a real stream rather than one buffered blob.
type sse struct {
	w   http.ResponseWriter
	err error
}

func newSSE(w http.ResponseWriter) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return &sse{w: w}
}

// event writes "event: name" (omitted when name is empty) and the JSON data.
func (s *sse) event(name string, data any) {
	payload, ok := data.(string)
	if !ok {
		payload = mustJSON(data)
	}
	s.raw(name, payload)
}

func (s *sse) raw(name, payload string) {
	if s.err != nil {
		return
	}
	var b strings.Builder
	if name != "" {
		b.WriteString("event: " + name + "\n")
	}
	b.WriteString("data: " + payload + "\n\n")
	if _, err := io.WriteString(s.w, b.String()); err != nil {
		s.err = fmt.Errorf("write event %s: %w", name, err)
		return
	}
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}
