package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// TestKimi_Kinds: prompts, answers, tool calls (arguments decoded from
// their JSON string) and results, and compaction summaries are imported
// once, from agent.message.appended; the system prompt (profile.bind),
// injected reminders, reasoning and packet echoes are losses; the loop
// events and turn.prompt that repeat the conversation are skipped.
func TestKimi_Kinds(t *testing.T) {
	r := readAll(t, kimiSource{}, "testdata/kimi/kinds.jsonl", "", ReadOptions{})
	var got []string
	for _, e := range r.events {
		got = append(got, e.Kind+"/"+e.Role+": "+e.Content)
	}
	want := []string{
		"message/user: list the files",
		"message/assistant: Looking.",
		`tool_call/assistant: Bash: {"command":"ls"}`,
		`tool_call/assistant: Read: "not json"`,
		"tool_result/tool: README.md\n",
		"compaction/system: The conversation so far has been compacted. The user listed the files.",
		"message/assistant: Done.",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if at := r.events[0].OccurredAt; at.IsZero() || at.UnixMilli() != 1796173933817 {
		t.Errorf("time %v, want the record's Unix milliseconds", at)
	}
	var reasons []string
	for _, l := range r.losses {
		reasons = append(reasons, l.Reason)
	}
	wantLosses := []string{"system prompt skipped (profile.bind)", "injected context skipped (injection)",
		"reasoning skipped", "handoff packet echo skipped", "injected context skipped (injection)"}
	if !reflect.DeepEqual(reasons, wantLosses) {
		t.Errorf("losses %q, want %q", reasons, wantLosses)
	}
}

func TestKimiBucketSuffix(t *testing.T) {
	// Checked against the bucket Kimi Code 2.1.0 made for this cwd.
	for in, want := range map[string]string{
		"/tmp/amrig.hICcNa/kimi-2.1.0/home/project":  "_da98fbf435c6",
		"/tmp/amrig.hICcNa/kimi-2.1.0/home/project/": "_da98fbf435c6",
	} {
		if got := KimiBucketSuffix(in); got != want {
			t.Errorf("KimiBucketSuffix(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzKimiLine(f *testing.F) {
	seedLines(f, "testdata/kimi/*.jsonl")
	seedLines(f, "testdata/real/kimi*/*.jsonl")
	f.Fuzz(func(t *testing.T, line []byte) { fuzzParser(t, kimiParser{}, line) })
}

// Kimi's shell report becomes exit_code; other text stays whole.
func TestKimiShellStatus(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		exit     int // -1: none
	}{
		{"hello\n", "hello\n", -1},
		{"Command executed successfully.", noOutput, 0},
		{"oops\nCommand failed with exit code: 2.", "oops\n", 2},
		{"oops\n\nCommand failed with exit code: 1.", "oops\n\n", 1},
		{"Process exited with code 7\nCommand failed with exit code: 7.", noOutput, 7},
		{"Command failed with exit code: x.", "Command failed with exit code: x.", -1},
		{"a\nCommand failed with exit code: 3", "a\nCommand failed with exit code: 3", -1},
		{"Command executed successfully. yes", "Command executed successfully. yes", -1},
	} {
		got, rep := kimiShellStatus(tc.in)
		exit := -1
		if rep.exitCode != nil {
			exit = *rep.exitCode
		}
		if got != tc.want || exit != tc.exit {
			t.Errorf("kimiShellStatus(%q) = %q, %d; want %q, %d", tc.in, got, exit, tc.want, tc.exit)
		}
	}
}
