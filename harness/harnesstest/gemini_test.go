package harnesstest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/transcript"
)

func TestFakeGemini_RunAndResume(t *testing.T) {
	f := newFakeEnv(t)
	id := "0b1c2d3e-0000-4000-8000-000000000001"
	if res := f.run(runGemini, "", false, "-p", "hello RUN_TOOL", "--session-id", id, "-y"); res.code != 0 ||
		!strings.Contains(res.stdout, "TOOL_DONE: Output: hello | ACK: hello RUN_TOOL") {
		t.Fatalf("fresh: %+v", res)
	}
	files, _ := filepath.Glob(filepath.Join(f.home, ".gemini/tmp/my-repo/chats/session-*-0b1c2d3e.jsonl"))
	if len(files) != 1 {
		t.Fatalf("chat files %v, want one under the slug of my.repo", files)
	}
	var reg struct{ Projects map[string]string }
	data, _ := os.ReadFile(filepath.Join(f.home, ".gemini/projects.json"))
	if json.Unmarshal(data, &reg) != nil || reg.Projects[f.cwd] != "my-repo" {
		t.Errorf("projects.json %s", data)
	}
	if res := f.run(runGemini, "", false, "-p", "again", "--resume", id); res.code != 0 || f.lastLog().SessionID != id {
		t.Fatalf("resume: %+v", res)
	}
	lines := strings.Split(strings.TrimSpace(readFile(t, files[0])), "\n")
	if n := strings.Count(readFile(t, files[0]), `"sessionId":"`+id+`","projectHash"`); n != 2 {
		t.Errorf("headers = %d, want 2 (a resume appends one)", n)
	}
	if !strings.Contains(lines[len(lines)-2], `"content":"ACK: again"`) {
		t.Errorf("last message %s", lines[len(lines)-2])
	}
	src := transcript.GeminiSource()
	s, ex, err := src.Find(f.tenv(), id)
	if ex != transcript.Present || err != nil || s.Path != files[0] {
		t.Errorf("Find = %+v %v %v", s, ex, err)
	}
	for _, tt := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"-p", "x", "--session-id", id}, 42, "already exists"},
		{[]string{"-p", "x", "--resume", "nope-nope"}, 42, "Invalid session identifier"},
		{[]string{"-p", "x", "-y", "--approval-mode", "yolo"}, 1, "Cannot use both --yolo"},
		{[]string{"-p", "x", "--resume", id, "--session-id", id}, 1, "mutually exclusive"},
		{[]string{"-p", "x", "extra"}, 1, "positional prompt"},
		{[]string{"--bogus"}, 1, "Unknown argument: bogus"},
	} {
		if res := f.run(runGemini, "", false, tt.args...); res.code != tt.code || !strings.Contains(res.stderr, tt.err) {
			t.Errorf("%q: %+v, want %d %q", tt.args, res, tt.code, tt.err)
		}
	}
	if res := f.run(runGemini, "", false, "-p", "latest one", "--resume"); res.code != 0 || f.lastLog().SessionID != id {
		t.Errorf("bare --resume: %+v, session %s", res, f.lastLog().SessionID)
	}
}

// TestFakeGemini_SystemPrompt: the fake writes its mode-dependent prompt to
// GEMINI_WRITE_SYSTEM_MD and reports what follows that prompt in the
// GEMINI_SYSTEM_MD file as the context that reached the model.
func TestFakeGemini_SystemPrompt(t *testing.T) {
	f := newFakeEnv(t)
	out := filepath.Join(f.home, "dump.md")
	f.env["GEMINI_WRITE_SYSTEM_MD"] = out
	if res := f.run(runGemini, "", false, "-p", "x", "--fake-responses-non-strict", "/dev/null", "-y"); res.code != 0 {
		t.Fatalf("dry start: %+v", res)
	}
	base := readFile(t, out)
	if base != geminiDefaultPrompt(f.home, false, "YOLO") {
		t.Errorf("dumped prompt %q", base)
	}
	if _, err := os.Stat(f.log); err == nil {
		t.Error("a dry start was logged")
	}
	sys := filepath.Join(f.home, "sys.md")
	f.env["GEMINI_WRITE_SYSTEM_MD"] = ""
	f.env["GEMINI_SYSTEM_MD"] = sys
	for content, want := range map[string]string{
		base + "\nPACKET":                        "PACKET",
		"PACKET ONLY":                            "[default system prompt missing] PACKET ONLY",
		strings.TrimRight(base, "\n") + "\n\nP2": "P2",
	} {
		if err := os.WriteFile(sys, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if res := f.run(runGemini, "", false, "-p", "q", "-y"); res.code != 0 || f.lastLog().Context != want {
			t.Errorf("context %q (%+v), want %q", f.lastLog().Context, res, want)
		}
	}
	f.env["GEMINI_SYSTEM_MD"] = filepath.Join(f.home, "missing.md")
	if res := f.run(runGemini, "", false, "-p", "q"); res.code != 1 || !strings.Contains(res.stderr, "missing system prompt file") {
		t.Errorf("missing file: %+v", res)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
