package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// TestCopilot_Kinds: prompts, answers, tool calls and results (a failed one
// with its error message) and compaction summaries are imported; the
// system prompt, hook output, reasoning, skill context and packet echoes
// are losses; bookkeeping (usage records, tool.execution_start,
// session.*) is skipped silently.
func TestCopilot_Kinds(t *testing.T) {
	r := readAll(t, copilotSource{}, "testdata/copilot/kinds.jsonl", "", ReadOptions{})
	var got []string
	for _, e := range r.events {
		got = append(got, e.Kind+"/"+e.Role+": "+e.Content)
	}
	want := []string{
		"message/user: list the files",
		"message/assistant: Let me look.",
		`tool_call/assistant: bash: {"command":"ls"}`,
		`tool_call/assistant: view: {"path":"/home/user/project/missing"}`,
		"tool_result/tool: README.md", // the shell status line is exit_code metadata
		"tool_result/tool: Path does not exist",
		"compaction/system: The user listed the files.",
		"message/assistant: Done.",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if e := r.events[5]; e.Metadata["is_error"] != true || e.Metadata["call_id"] != "call_2" {
		t.Errorf("failed result metadata %v", e.Metadata)
	}
	var reasons []string
	for _, l := range r.losses {
		reasons = append(reasons, l.Reason)
	}
	wantLosses := []string{"hook output skipped (hook.end)", "system prompt skipped (system.message)",
		"reasoning skipped", "reasoning skipped", "handoff packet echo skipped",
		"injected context skipped (skill.invoked)", "handoff packet echo skipped"}
	if !reflect.DeepEqual(reasons, wantLosses) {
		t.Errorf("losses %q, want %q", reasons, wantLosses)
	}
}

func FuzzCopilotLine(f *testing.F) {
	seedLines(f, "testdata/copilot/*.jsonl")
	seedLines(f, "testdata/real/copilot*/*.jsonl")
	f.Fuzz(func(t *testing.T, line []byte) { fuzzParser(t, copilotParser{}, line) })
}

// Copilot's shell status line becomes exit_code; other text stays whole.
func TestCopilotShellStatus(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		exit     int // -1: no report
	}{
		{"hello\n<shellId: 0 completed with exit code 0>", "hello", 0},
		{"oops\n\n<shellId: 3 completed with exit code 2>\n", "oops", 2},
		{"<detached command with shellId: 1 completed with exit code 0>", noOutput, 0},
		{"<shellId: 0 completed with exit code 1>", noOutput, 1},
		{"hello\n<shellId: 0 is still running>", "hello\n<shellId: 0 is still running>", -1},
		{"<shellId: 0 completed with exit code 0> and more", "<shellId: 0 completed with exit code 0> and more", -1},
		{"plain output", "plain output", -1},
	} {
		got, rep := copilotShellStatus(tc.in)
		exit := -1
		if rep.exitCode != nil {
			exit = *rep.exitCode
		}
		if got != tc.want || exit != tc.exit {
			t.Errorf("copilotShellStatus(%q) = %q, exit %d; want %q, exit %d", tc.in, got, exit, tc.want, tc.exit)
		}
	}
}
