package transcript

import (
	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"

	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// geminiFixtures returns the real chat files captured from Gemini CLI by
// scripts/capture-fixtures.sh.
func geminiFixtures(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob("testdata/gemini/*/*.jsonl")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no Gemini fixtures under testdata/gemini (run scripts/capture-fixtures.sh): %v", err)
	}
	return paths
}

// TestGeminiGolden compares the events and losses of every real Gemini
// fixture with its golden file (go test ./transcript -update regenerates).
func TestGeminiGolden(t *testing.T) {
	for _, path := range geminiFixtures(t) {
		t.Run(path, func(t *testing.T) {
			got, err := json.MarshalIndent(toGolden(readAll(t, geminiSource{}, path, Cursor(""), ReadOptions{})), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			gp := goldenPath(path)
			if *update {
				writeFile(t, gp, string(got))
				return
			}
			want, err := os.ReadFile(gp)
			if err != nil {
				t.Fatalf("missing golden file (run go test ./transcript -update): %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s; run go test ./transcript -update and review the diff\n%s", path, gp, got)
			}
		})
	}
}

// TestGeminiSupersede pins the rule for a message written again with the
// same id: each block is imported once (no duplicate event key), nothing of
// the later version is lost (the tool call and its result are there, the
// result once although the CLI also records it as a user functionResponse),
// and no two events share a key with different content.
func TestGeminiSupersede(t *testing.T) {
	for _, path := range geminiFixtures(t) {
		t.Run(path, func(t *testing.T) {
			r := readAll(t, geminiSource{}, path, Cursor(""), ReadOptions{})
			seen := map[string]string{}
			kinds := map[string]int{}
			for _, e := range r.events {
				k := e.Kind + "|" + e.RecordID + "|" + strconv.Itoa(e.BlockIndex)
				if c, dup := seen[k]; dup {
					t.Errorf("event %s imported twice (contents %q, %q)", k, c, e.Content)
				}
				seen[k] = e.Content
				kinds[e.Kind]++
			}
			if strings.Contains(path, "context") {
				return // no tool call in that capture
			}
			if kinds[KindToolCall] != 1 || kinds[KindToolResult] != 1 {
				t.Errorf("tool calls %d, results %d; want 1 and 1", kinds[KindToolCall], kinds[KindToolResult])
			}
		})
	}
}

// TestGeminiSupersedeAcrossReads splits a message and its superseding line
// over two reads: the second read re-emits the first version's blocks under
// the same keys (the ledger drops them) and adds the tool call and result.
func TestGeminiSupersedeAcrossReads(t *testing.T) {
	b, err := os.ReadFile("testdata/gemini/0.61.0/print.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	full := readAll(t, geminiSource{}, "testdata/gemini/0.61.0/print.jsonl", Cursor(""), ReadOptions{})
	for cut := 1; cut < len(lines); cut++ {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		writeFile(t, path, string(bytes.Join(lines[:cut], nil)))
		first := readAll(t, geminiSource{}, path, Cursor(""), ReadOptions{})
		appendFile(t, path, string(bytes.Join(lines[cut:], nil)))
		rest := readAll(t, geminiSource{}, path, first.last(Cursor("")), ReadOptions{})
		union := map[string]bool{}
		for _, k := range append(eventKeys(first.events), eventKeys(rest.events)...) {
			union[k] = true
		}
		want := map[string]bool{}
		for _, k := range eventKeys(full.events) {
			want[k] = true
		}
		if !reflect.DeepEqual(union, want) {
			t.Errorf("cut after line %d: %d distinct events, want %d", cut, len(union), len(want))
		}
	}
}

// TestGeminiResumeFromEveryBatch: resuming from any batch's cursor yields
// exactly the events after it, once the ledger's rule is applied: an event
// whose deterministic id is already stored is skipped (ledger.Append). A
// read resumed after a tool call's line re-emits its result from the user
// functionResponse line under the same key, which that rule drops.
func TestGeminiResumeFromEveryBatch(t *testing.T) {
	for _, path := range geminiFixtures(t) {
		t.Run(path, func(t *testing.T) {
			src := geminiSource{}
			want := distinct(eventKeys(readAll(t, src, path, Cursor(""), ReadOptions{}).events))
			var before []string
			err := src.Read(t.Context(), Session{Path: path}, Cursor(""), ReadOptions{BatchEvents: 1}, func(b Batch) error {
				before = append(before, eventKeys(b.Events)...)
				rest := readAll(t, src, path, b.Cursor, ReadOptions{})
				if got := distinct(append(append([]string{}, before...), eventKeys(rest.events)...)); !reflect.DeepEqual(got, want) {
					t.Errorf("resume from cursor %s: %q, want %q", b.Cursor, got, want)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// distinct keeps the first occurrence of each key, as the ledger does.
func distinct(keys []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

func TestGeminiParseRecords(t *testing.T) {
	tests := []struct {
		name   string
		line   string
		events []string // kind|role|record|block|content
		losses []string
	}{
		{"UserText", `{"id":"u1","type":"user","content":[{"text":"fix it"}]}`,
			[]string{"message|user|u1|0|fix it"}, nil},
		{"UserString", `{"id":"u1","type":"user","content":"fix it"}`,
			[]string{"message|user|u1|0|fix it"}, nil},
		{"HookContextBeforePrompt", `{"id":"u1","type":"user","content":[{"text":"<hook_context>\nPKT\n</hook_context>\n\nfix it"}]}`,
			[]string{"message|user|u1|0|fix it"}, []string{"injected context skipped (<hook_context>)"}},
		{"SessionContext", `{"id":"u1","type":"user","content":[{"text":"<session_context>\nThis is the Gemini CLI.</session_context>"}]}`,
			nil, []string{"injected context skipped (<session_context>)"}},
		{"PacketEcho", `{"id":"u1","type":"user","content":[{"text":"<!-- ai-memory:packet:v1 -->\nold"}]}`,
			nil, []string{"handoff packet echo skipped"}},
		{"GeminiThoughtsTokens", `{"id":"g1","type":"gemini","content":"done","thoughts":[{"subject":"s","description":"d"}],"tokens":{"input":1}}`,
			[]string{"message|assistant|g1|0|done"}, []string{"thoughts skipped", "token usage skipped"}},
		{"ToolCallRunning", `{"id":"g1","type":"gemini","content":"","toolCalls":[{"id":"c1","name":"run_shell_command","args":{"command":"ls"},"status":"executing"}]}`,
			[]string{`tool_call|assistant|c1|0|run_shell_command: {"command":"ls"}`}, nil},
		{"ToolCallDone", `{"id":"g1","type":"gemini","content":"","toolCalls":[{"id":"c1","name":"run_shell_command","args":{"command":"ls"},"status":"success","result":[{"functionResponse":{"id":"c1","name":"run_shell_command","response":{"output":"a\nb"}}}]}]}`,
			[]string{`tool_call|assistant|c1|0|run_shell_command: {"command":"ls"}`, "tool_result|tool|c1|1|a\nb"}, nil},
		{"ToolCallError", `{"id":"g1","type":"gemini","content":"","toolCalls":[{"id":"c1","name":"read_file","args":{},"status":"error","result":[{"functionResponse":{"id":"c1","name":"read_file","response":{"error":"no such file"}}}]}]}`,
			[]string{"tool_call|assistant|c1|0|read_file: {}", "tool_result|tool|c1|1|no such file"}, nil},
		{"UserFunctionResponse", `{"id":"u2","type":"user","content":[{"functionResponse":{"id":"c1","name":"x","response":{"output":"a\nb"}}}]}`,
			[]string{"tool_result|tool|c1|1|a\nb"}, nil},
		{"Snapshot", `{"$set":{"messages":[{"id":"u1","type":"user","content":[{"text":"hi"}]}]}}`,
			nil, []string{"history snapshot skipped ($set.messages: injected session context and replayed messages)"}},
		{"MetadataPatch", `{"$set":{"lastUpdated":"2026-12-01T21:12:18.905Z"}}`, nil, nil},
		{"Header", `{"sessionId":"s","projectHash":"h","startTime":"t","kind":"main"}`, nil, nil},
		{"Rewind", `{"$rewindTo":"u1"}`, nil, []string{"rewind skipped: the user withdrew later messages; those already imported are kept"}},
		{"NoType", `{"id":"x1","content":"?"}`, nil, []string{"gemini message without a type skipped"}},
		{"InfoMessage", `{"id":"i1","type":"info","content":"Request cancelled."}`, nil, []string{"gemini info message skipped"}},
		{"InlineData", `{"id":"u1","type":"user","content":[{"inlineData":{"mimeType":"image/png","data":"AA=="}},{"text":"see"}]}`,
			[]string{"message|user|u1|1|see"}, []string{"non-text part skipped"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out sink
			(&geminiParser{}).parse([]byte(tt.line), 0, &out)
			var evs, losses []string
			for _, e := range out.events {
				evs = append(evs, strings.Join([]string{e.Kind, e.Role, e.RecordID, strconv.Itoa(e.BlockIndex), e.Content}, "|"))
			}
			for _, l := range out.losses {
				losses = append(losses, l.Reason)
			}
			if !reflect.DeepEqual(evs, tt.events) || !reflect.DeepEqual(losses, tt.losses) {
				t.Errorf("events %q losses %q\nwant   %q losses %q", evs, losses, tt.events, tt.losses)
			}
		})
	}
}

// geminiStore builds a Gemini store under a throwaway home: the checkout's
// chats (the real print fixture, its projectHash set to the checkout's),
// projects.json and .project_root, plus another project's chat.
func geminiStore(t *testing.T, s store) (root, path, id string) {
	t.Helper()
	root = filepath.Join(s.home, ".gemini")
	b, err := os.ReadFile("testdata/gemini/0.61.0/print.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	id = str(jsonx.Get(bytes.SplitN(b, []byte("\n"), 2)[0], "sessionId"))
	scrubbed := GeminiProjectHash("/home/user/project")
	mine := bytes.ReplaceAll(b, []byte(scrubbed), []byte(GeminiProjectHash(s.repo)))
	path = filepath.Join(root, "tmp", "repo-git-wt", "chats", "session-2026-12-01T21-16-"+id[:8]+".jsonl")
	writeFile(t, path, string(mine))
	writeFile(t, filepath.Join(root, "tmp", "repo-git-wt", ".project_root"), s.repo)
	projects, _ := json.Marshal(map[string]any{"projects": map[string]string{s.repo: "repo-git-wt", s.other: "other"}})
	writeFile(t, filepath.Join(root, "projects.json"), string(projects))
	theirs := bytes.ReplaceAll(b, []byte(scrubbed), []byte(GeminiProjectHash(s.other)))
	theirs = bytes.ReplaceAll(theirs, []byte(id), []byte("0ther000-1ac2-4ace-9d95-f477a43d7aab"))
	writeFile(t, filepath.Join(root, "tmp", "other", "chats", "session-2026-12-01T21-16-0ther000.jsonl"), string(theirs))
	return root, path, id
}

func TestGeminiDiscovery(t *testing.T) {
	s := newStore(t)
	root, path, id := geminiStore(t, s)
	g := geminiSource{}
	before := treeSums(t, root)
	for _, checkout := range []string{s.repo, s.link} {
		ss, err := g.List(s.env, checkout, 10)
		if err != nil || len(ss) != 1 || ss[0].ID != id || ss[0].Path != path || ss[0].Cwd != s.repo {
			t.Fatalf("List(%s) = %+v, %v; want the one session %s", checkout, ss, err, id)
		}
	}
	if ss, _ := g.CreatedSince(s.env, s.repo, ss0time()); len(ss) != 1 {
		t.Errorf("CreatedSince = %d sessions, want 1", len(ss))
	}
	if got, ex, err := g.Find(s.env, id); ex != Present || err != nil || got.Path != path || got.Cwd != s.repo {
		t.Errorf("Find = %+v %v %v", got, ex, err)
	}
	if _, ex, err := g.Find(s.env, id[:8]+"-0000-4000-8000-000000000000"); ex != Absent || err != nil {
		t.Errorf("Find(same 8-digit prefix) = %v %v, want absent", ex, err)
	}
	if _, ex, _ := g.Find(s.env, "../../etc"); ex != Absent {
		t.Errorf("Find(path) = %v, want absent", ex)
	}
	readAll(t, g, path, Cursor(""), ReadOptions{})
	if after := treeSums(t, root); !reflect.DeepEqual(before, after) {
		t.Error("discovery or import changed the Gemini store")
	}
}

// TestGeminiResumeStub: when 0.61.0's TUI resumes a session it also writes
// a newer-named stub file (header and session context) under the same id;
// List and Find name the original once.
func TestGeminiResumeStub(t *testing.T) {
	s := newStore(t)
	_, path, id := geminiStore(t, s)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	stub := filepath.Join(filepath.Dir(path), "session-2026-12-01T21-20-"+id[:8]+".jsonl")
	writeFile(t, stub, string(bytes.Join(bytes.SplitAfter(b, []byte("\n"))[:2], nil)))
	g := geminiSource{}
	ss, err := g.List(s.env, s.repo, 10)
	if err != nil || len(ss) != 1 || ss[0].Path != path {
		t.Errorf("List = %+v, %v; want the original only", ss, err)
	}
	if got, ex, err := g.Find(s.env, id); ex != Present || err != nil || got.Path != path {
		t.Errorf("Find = %+v %v %v; want the original", got, ex, err)
	}
}

// ss0time is a time well before the fixtures were written.
func ss0time() time.Time { return time.Time{} }

func TestGeminiDiscoveryFallbacks(t *testing.T) {
	s := newStore(t)
	root, _, id := geminiStore(t, s)
	g := geminiSource{}
	// projects.json lost: the .project_root marker still finds the project.
	if err := os.Remove(filepath.Join(root, "projects.json")); err != nil {
		t.Fatal(err)
	}
	if ss, err := g.List(s.env, s.repo, 10); err != nil || len(ss) != 1 || ss[0].ID != id {
		t.Fatalf("List without projects.json = %+v, %v", ss, err)
	}
	// GEMINI_CLI_HOME replaces the home directory.
	moved := filepath.Join(t.TempDir(), "gh")
	if err := os.Rename(s.home, moved); err != nil {
		t.Fatal(err)
	}
	env := Env{Home: s.home, Getenv: func(k string) string {
		if k == "GEMINI_CLI_HOME" {
			return moved
		}
		return ""
	}}
	if got := g.StoreRoot(env); got != filepath.Join(moved, ".gemini") {
		t.Errorf("StoreRoot = %s", got)
	}
	if _, ex, err := g.Find(env, id); ex != Present || err != nil {
		t.Errorf("Find under GEMINI_CLI_HOME = %v %v", ex, err)
	}
	if _, ex, err := g.Find(s.env, id); ex != Absent || err != nil {
		t.Errorf("Find with no store = %v %v, want absent", ex, err)
	}
	if runtime.GOOS != "windows" && os.Geteuid() != 0 {
		tmp := filepath.Join(moved, ".gemini", "tmp")
		if err := os.Chmod(tmp, 0); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(tmp, 0o700)
		if _, ex, _ := g.Find(env, id); ex != Unknown {
			t.Errorf("Find in an unreadable store = %v, want unknown", ex)
		}
	}
}

func TestGeminiProjectHashMatchesFixture(t *testing.T) {
	b, err := os.ReadFile("testdata/gemini/0.61.0/print.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if h := geminiReadHeaderBytes(b); h != GeminiProjectHash("/home/user/project") {
		t.Errorf("fixture projectHash %s is not SHA-256 of its (scrubbed) project root", h)
	}
}

func geminiReadHeaderBytes(b []byte) string {
	return str(jsonx.Get(bytes.SplitN(b, []byte("\n"), 2)[0], "projectHash"))
}

// FuzzGeminiLine parses arbitrary lines: no panic, complete events, no
// packet echo imported, and the same line parsed twice in one read adds
// nothing the second time (a superseding copy never duplicates).
func FuzzGeminiLine(f *testing.F) {
	seedLines(f, "testdata/gemini/*/*.jsonl")
	f.Fuzz(func(t *testing.T, line []byte) {
		fuzzParser(t, &geminiParser{}, line)
		pr := &producer{p: &geminiParser{}}
		pr.handle(line, 0, false)
		n := len(pr.cur.events)
		pr.handle(line, 1, false)
		if len(pr.cur.events) != n {
			t.Fatalf("the same line parsed twice emitted %d more events: %q", len(pr.cur.events)-n, line)
		}
	})
}

// TestGeminiSlugsReadRealRegistry reads the projects.json the real CLI
// wrote during the fixture capture.
func TestGeminiSlugsReadRealRegistry(t *testing.T) {
	root := t.TempDir()
	b, err := os.ReadFile("testdata/gemini/0.61.0/projects.json")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "projects.json"), string(b))
	if got := geminiSlugs(root); !reflect.DeepEqual(got, map[string]string{"/home/user/project": "project"}) {
		t.Errorf("geminiSlugs = %v", got)
	}
	writeFile(t, filepath.Join(root, "projects.json"), "{not json")
	if got := geminiSlugs(root); got != nil {
		t.Errorf("malformed projects.json read as %v, want nothing", got)
	}
}
