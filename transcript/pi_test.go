package transcript

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestPi_BranchInUse: of a tree with an abandoned branch, only the path
// from the last entry to the root is imported, in file order; the rest,
// system prompts, reasoning, images, extension messages, shell escapes and
// packet echoes are losses.
func TestPi_BranchInUse(t *testing.T) {
	r := readAll(t, piSource{}, "testdata/pi/branches.jsonl", "", ReadOptions{})
	var got []string
	for _, e := range r.events {
		got = append(got, e.Kind+"/"+e.Role+"/"+e.RecordID+": "+e.Content)
	}
	want := []string{
		"message/user/a0000003: first question",
		"tool_call/assistant/a0000004: bash: {\"command\":\"echo hello\"}",
		"tool_result/tool/a0000005: hello\n",
		"compaction/system/a0000008: The user tried a follow-up that was dropped.",
		"compaction/system/a000000b: Earlier: the user asked a question and ran echo.",
		"message/user/a000000c: the branch in use",
		"message/assistant/a000000e: final answer",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var reasons []string
	for _, l := range r.losses {
		reasons = append(reasons, l.Reason)
	}
	for _, w := range []string{"system prompt skipped (system)", "image part skipped", "reasoning skipped",
		"entry on an abandoned branch skipped", "extension message skipped (custom_message)",
		"user shell command skipped (bashExecution)", "handoff packet echo skipped"} {
		if !contains(reasons, w) {
			t.Errorf("losses %q lack %q", reasons, w)
		}
	}
	if n := count(reasons, "entry on an abandoned branch skipped"); n != 2 {
		t.Errorf("%d abandoned entries, want 2", n)
	}
}

// TestPi_AppendedAfterScan: entries written after the tree scan extend the
// leaf and are imported, and a resumed read imports only them.
func TestPi_AppendedAfterScan(t *testing.T) {
	data, err := os.ReadFile("testdata/pi/branches.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	writeFile(t, path, string(data))
	first := readAll(t, piSource{}, path, "", ReadOptions{})
	more := `{"type":"message","id":"a000000f","parentId":"a000000e","timestamp":"2026-12-01T22:36:00.000Z","message":{"role":"user","content":"next"}}` + "\n"
	writeFile(t, path, string(data)+more)
	again := readAll(t, piSource{}, path, first.last(""), ReadOptions{})
	if len(again.events) != 1 || again.events[0].Content != "next" || len(again.losses) != 0 {
		t.Errorf("resumed read = %+v, %+v; want the one new entry", again.events, again.losses)
	}
}

func TestPiProjectDir(t *testing.T) {
	for in, want := range map[string]string{
		"/tmp/x/repo": "--tmp-x-repo--", "/home/u/a.b": "--home-u-a.b--", `C:\work\r`: "--C--work-r--", "/": "----",
	} {
		if got := PiProjectDir(in); got != want {
			t.Errorf("PiProjectDir(%q) = %q, want %q", in, got, want)
		}
	}
}

func contains(list []string, s string) bool { return count(list, s) > 0 }

func count(list []string, s string) int {
	n := 0
	for _, v := range list {
		if v == s {
			n++
		}
	}
	return n
}
