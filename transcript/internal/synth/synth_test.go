package synth

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func generate(t *testing.T, c Claude, size int64) []byte {
	t.Helper()
	var buf bytes.Buffer
	n, err := c.Write(&buf, size)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("Write returned %d, wrote %d bytes", n, buf.Len())
	}
	return buf.Bytes()
}

func TestWriteSizeAndRecords(t *testing.T) {
	tests := []struct {
		name string
		c    Claude
		size int64
	}{
		{"defaults", Claude{}, 256 << 10},
		{"custom", Claude{Seed: 7, SessionID: "0b6c2a4e-1111-4222-8333-444455556666", Cwd: "/tmp/x y/日本"}, 128 << 10},
		{"tiny", Claude{}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := generate(t, tt.c, tt.size)
			if int64(len(data)) < tt.size || !bytes.HasSuffix(data, []byte("\n")) {
				t.Fatalf("got %d bytes (want >= %d, ending in a newline)", len(data), tt.size)
			}
			want := tt.c.withDefaults()
			for i, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
				checkRecord(t, i, line, want)
			}
		})
	}
}

// checkRecord checks that a line is one JSON record of the session.
func checkRecord(t *testing.T, i int, line []byte, c Claude) {
	t.Helper()
	var rec map[string]any
	if err := json.Unmarshal(line, &rec); err != nil {
		t.Fatalf("line %d is not JSON: %v", i, err)
	}
	if rec["type"] == "summary" {
		return
	}
	if rec["cwd"] != c.Cwd || rec["sessionId"] != c.SessionID {
		t.Fatalf("line %d: cwd %v session %v, want %q %q", i, rec["cwd"], rec["sessionId"], c.Cwd, c.SessionID)
	}
}

func TestWriteDeterministic(t *testing.T) {
	a := generate(t, Claude{}, 64<<10)
	b := generate(t, Claude{Seed: DefaultSeed, SessionID: "bench", Cwd: "/home/user/project"}, 64<<10)
	if !bytes.Equal(a, b) {
		t.Fatal("the same seed and options gave different bytes")
	}
	if c := generate(t, Claude{Seed: 1}, 64<<10); bytes.Equal(a, c) {
		t.Fatal("different seeds gave the same bytes")
	}
}

// TestWriteMix checks that every record shape the reader handles occurs.
func TestWriteMix(t *testing.T) {
	data := string(generate(t, Claude{}, 4<<20))
	for _, want := range []string{`"type":"summary"`, `"type":"tool_use"`, `"name":"Edit"`, `"name":"Bash"`,
		`"type":"tool_result"`, `"toolUseResult"`, `"usage"`, `"message":{"content":"`, `\t`, `\n`, `\"`, `日本語`, `<div`} {
		if !strings.Contains(data, want) {
			t.Errorf("corpus lacks %s", want)
		}
	}
}

func TestWriteFile(t *testing.T) {
	path := t.TempDir() + "/s.jsonl"
	if err := (Claude{}).WriteFile(path, 32<<10); err != nil {
		t.Fatal(err)
	}
	if err := (Claude{}).WriteFile(t.TempDir()+"/missing/s.jsonl", 1); err == nil {
		t.Fatal("WriteFile into a missing directory succeeded")
	}
}
