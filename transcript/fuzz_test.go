package transcript

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// seedLines adds every line of the fixtures of one harness to f.
func seedLines(f *testing.F, glob string) {
	paths, _ := filepath.Glob(glob)
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			f.Add(append([]byte(nil), sc.Bytes()...))
		}
	}
}

// FuzzJSONValid checks the scanner against encoding/json: same validity,
// same string values.
func FuzzJSONValid(f *testing.F) {
	for _, s := range []string{`{}`, `[1,-0.5e+3,"a\u00e9\ud83d\ude00",true,null]`, `{"a":}`, `"\ud800"`, `01`, ` "x" `, `{"a":1,}`, "\"\x01\""} {
		f.Add([]byte(s))
	}
	seedLines(f, "testdata/claude/*.jsonl")
	f.Fuzz(func(t *testing.T, b []byte) {
		got, want := jsonx.Valid(b), json.Valid(b)
		if got != want {
			t.Fatalf("jsonx.Valid(%q) = %v, json.Valid = %v", b, got, want)
		}
		if !got {
			return
		}
		v := bytes.TrimSpace(b)
		var s string
		if v[0] == '"' && json.Unmarshal(v, &s) == nil {
			if mine, ok := jsonx.String(v); !ok || mine != s {
				t.Fatalf("jsonx.String(%q) = %q, encoding/json = %q", v, mine, s)
			}
		}
		jsonx.Fields(v, func(k, val []byte) bool { _ = jsonx.KeyName(k); return jsonx.Valid(val) || t.Failed() })
		jsonx.Elems(v, func(el []byte) bool {
			if !jsonx.Valid(el) {
				t.Fatalf("element %q of %q is not a value", el, v)
			}
			return true
		})
		var compact bytes.Buffer
		if err := json.Compact(&compact, v); err == nil && string(jsonx.Compact(nil, v)) != compact.String() {
			t.Fatalf("jsonx.Compact(%q) = %q, want %q", v, jsonx.Compact(nil, v), compact.String())
		}
	})
}

func fuzzParser(t *testing.T, p recordParser, line []byte) {
	pr := &producer{p: p}
	pr.handle(line, 7, false)
	for _, e := range pr.cur.events {
		if e.Kind == "" || e.Role == "" || e.RecordID == "" {
			t.Fatalf("incomplete event %+v from %q", e, line)
		}
		if isPacketEcho(e.Content) {
			t.Fatalf("packet echo imported from %q", line)
		}
	}
}

func FuzzClaudeLine(f *testing.F) {
	seedLines(f, "testdata/claude/*.jsonl")
	seedLines(f, "testdata/real/claude*/*.jsonl")
	f.Fuzz(func(t *testing.T, line []byte) { fuzzParser(t, claudeParser{}, line) })
}

func FuzzCodexLine(f *testing.F) {
	seedLines(f, "testdata/codex/*.jsonl")
	seedLines(f, "testdata/real/codex*/*.jsonl")
	f.Fuzz(func(t *testing.T, line []byte) { fuzzParser(t, codexParser{}, line) })
}

func FuzzPiLine(f *testing.F) {
	seedLines(f, "testdata/pi/*.jsonl")
	seedLines(f, "testdata/real/pi*/*.jsonl")
	f.Fuzz(func(t *testing.T, line []byte) { fuzzParser(t, &piParser{}, line) })
}

func FuzzQwenLine(f *testing.F) {
	seedLines(f, "testdata/real/qwen*/*.jsonl")
	f.Add([]byte(`{"type":"user","uuid":"u","message":{"parts":[{"text":"hi"},{"text":"<qwen:user-prompt-submit-context>\nx\n</qwen:user-prompt-submit-context>"}]},"systemPayload":{"displayText":"hi","hookContext":"x"}}`))
	f.Fuzz(func(t *testing.T, line []byte) { fuzzParser(t, qwenParser{}, line) })
}

func FuzzOmpLine(f *testing.F) {
	seedLines(f, "testdata/real/omp*/*.jsonl")
	f.Fuzz(func(t *testing.T, line []byte) { fuzzParser(t, newOmpParser(nil), line) })
}

// FuzzPiTree reads arbitrary session files: whatever the tree (cycles,
// dangling parents, duplicate ids), the read ends and no abandoned entry
// is imported.
func FuzzPiTree(f *testing.F) {
	b, _ := os.ReadFile("testdata/pi/branches.jsonl")
	f.Add(b)
	f.Add([]byte(`{"id":"a","parentId":"b"}` + "\n" + `{"id":"b","parentId":"a"}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		writeFile(t, path, string(data))
		r := readAll(t, piSource{}, path, Cursor(""), ReadOptions{})
		abandoned, err := piAbandoned(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range r.events {
			if abandoned[e.RecordID] {
				t.Fatalf("entry %s of an abandoned branch imported", e.RecordID)
			}
		}
	})
}

// FuzzReadJSONL reads arbitrary file contents and checks the cursor
// invariants: it ends on a line boundary, its hash covers exactly the bytes
// before it, and resuming from it imports nothing more.
func FuzzReadJSONL(f *testing.F) {
	for _, p := range []string{"testdata/claude/print-mode.jsonl", "testdata/claude/partial-tail.jsonl", "testdata/codex/exec-tool-call.jsonl"} {
		b, _ := os.ReadFile(p)
		f.Add(b, uint16(100), true)
	}
	f.Add([]byte("{\"type\":\"user\"}\n{\"ty"), uint16(3), false)
	f.Fuzz(func(t *testing.T, data []byte, cut uint16, claude bool) {
		var src Source = codexSource{}
		if claude {
			src = claudeSource{}
		}
		path := filepath.Join(t.TempDir(), "s.jsonl")
		writeFile(t, path, string(data))
		r := readAll(t, src, path, Cursor(""), ReadOptions{BatchEvents: 2})
		end := fc(r.last(""))
		if end.Offset > int64(len(data)) || (end.Offset > 0 && data[end.Offset-1] != '\n') {
			t.Fatalf("cursor %d is not a line boundary of %d bytes", end.Offset, len(data))
		}
		if sum := sha256.Sum256(data[:end.Offset]); end.Offset > 0 && hex.EncodeToString(sum[:]) != end.PrefixSHA256 {
			t.Fatal("prefix hash does not match the bytes before the cursor")
		}
		if again := readAll(t, src, path, end.encode(), ReadOptions{}); len(again.events)+len(again.losses) != 0 {
			t.Fatalf("resume from the final cursor imported %d events, %d losses", len(again.events), len(again.losses))
		}
		odd := fileCursor{Path: path, Offset: int64(cut) % (int64(len(data)) + 2), PrefixSHA256: "00"}.encode()
		_ = src.Read(context.Background(), Session{Path: path}, odd, ReadOptions{}, func(Batch) error { return nil })
	})
}

func TestJSONString(t *testing.T) {
	tests := []string{`"plain"`, `"tab\tnl\nq\"bs\\sl\/"`, `"\u00e9\ud83d\ude00"`, `"\ud800x"`, `"\udc00\ud800"`, "\"\xff\xfe\"", `"\u0000"`}
	for _, in := range tests {
		var want string
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		if got, ok := jsonx.String([]byte(in)); !ok || got != want {
			t.Errorf("jsonx.String(%s) = %q, want %q", in, got, want)
		}
	}
	if _, ok := jsonx.String([]byte(`12`)); ok {
		t.Error("jsonx.String(12) ok")
	}
	if got := jsonx.Get([]byte(`{"a":1,"\u0062":2,"b":3}`), "b"); string(got) != "3" {
		t.Errorf("jsonx.Get last duplicate = %s", got)
	}
}
