package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"
)

// logEntry is one line of the request log.
type logEntry struct {
	Time      string            `json:"time"`
	Method    string            `json:"method"`
	Path      string            `json:"path"`
	Query     string            `json:"query,omitempty"`
	Host      string            `json:"host,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"`
	Body      json.RawMessage   `json:"body,omitempty"`
	PhoneHome bool              `json:"phone_home,omitempty"`
	Status    int               `json:"status"`
	Reply     string            `json:"reply"`
}

// secretHeaders are never logged: the rig uses dummy keys, but a log that
// records credentials would be a bad habit to ship.
var secretHeaders = map[string]bool{
	"Authorization":       true,
	"X-Api-Key":           true,
	"Cookie":              true,
	"Proxy-Authorization": true,
	"X-Goog-Api-Key":      true,
}

// requestLog appends entries as JSON lines; safe for concurrent use.
type requestLog struct {
	mu sync.Mutex
	f  *os.File
}

func openRequestLog(path string) (*requestLog, error) {
	if path == "" {
		return &requestLog{}, nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open request log: %w", err)
	}
	return &requestLog{f: f}, nil
}

// Close closes the underlying file, if any.
func (l *requestLog) Close() error {
	if l.f == nil {
		return nil
	}
	return l.f.Close()
}

// write appends one entry; a failed write is reported on stderr but never
// breaks the reply, because the harness under test must keep running.
func (l *requestLog) write(e logEntry) {
	if l.f == nil {
		return
	}
	line, err := json.Marshal(e)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mockmodel: encode log entry:", err)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.f.Write(append(line, '\n')); err != nil {
		fmt.Fprintln(os.Stderr, "mockmodel: write log entry:", err)
	}
}

// newEntry captures the request side of a log line.
func newEntry(r *http.Request, body []byte) logEntry {
	e := logEntry{
		Time:    time.Now().UTC().Format(time.RFC3339Nano),
		Method:  r.Method,
		Path:    r.URL.Path,
		Query:   r.URL.RawQuery,
		Host:    r.Host,
		Headers: map[string]string{},
		Body:    logBody(body),
	}
	for k, v := range r.Header {
		if !secretHeaders[http.CanonicalHeaderKey(k)] {
			e.Headers[k] = v[0]
		}
	}
	return e
}

// logBody keeps JSON bodies as JSON (compacted to one line) so that jq can
// query them, and stores anything else as a JSON string.
func logBody(body []byte) json.RawMessage {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	var buf bytes.Buffer
	if json.Valid(body) && json.Compact(&buf, body) == nil {
		return buf.Bytes()
	}
	s, _ := json.Marshal(string(body))
	return s
}
