package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// TestCommandCode_Kinds: the branch in use is imported (text, tool_use,
// tool_result, compaction); reasoning, images, mod messages, packet
// echoes and the abandoned branch are losses; session_info is skipped.
func TestCommandCode_Kinds(t *testing.T) {
	r := readAll(t, commandCodeSource{}, "testdata/command-code/kinds.jsonl", "", ReadOptions{})
	var got []string
	for _, e := range r.events {
		got = append(got, e.Kind+"/"+e.Role+": "+e.Content)
	}
	want := []string{
		"message/user: list the files",
		`tool_call/assistant: shell_command: {"command":"ls"}`,
		"tool_result/tool: README.md\n",
		"message/assistant: README.md is there.",
		"compaction/system: The user listed the files.",
		"message/assistant: Done.",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var reasons []string
	for _, l := range r.losses {
		reasons = append(reasons, l.Reason)
	}
	wantLosses := []string{"reasoning skipped", "entry on an abandoned branch skipped", "image part skipped",
		"extension message skipped (custom_message)", "handoff packet echo skipped"}
	if !reflect.DeepEqual(reasons, wantLosses) {
		t.Errorf("losses %q, want %q", reasons, wantLosses)
	}
}

func TestCommandCodeSlug(t *testing.T) {
	for in, want := range map[string]string{
		"/tmp/x/repo": "tmp-x-repo", "/home/u/my_repo.git": "home-u-my-repo-git", "/": "",
	} {
		if got := CommandCodeSlug(in); got != want {
			t.Errorf("CommandCodeSlug(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzCommandCodeLine(f *testing.F) {
	seedLines(f, "testdata/command-code/*.jsonl")
	seedLines(f, "testdata/real/command-code*/*.jsonl")
	f.Fuzz(func(t *testing.T, line []byte) { fuzzParser(t, &commandCodeParser{}, line) })
}

// Command Code's leading report becomes metadata; other text stays whole.
func TestCommandCodeShellStatus(t *testing.T) {
	for _, tc := range []struct {
		in, want, signal string
		exit             int // -1: none
	}{
		{"hello\n", "hello\n", "", -1},
		{"Exit code: 2\nboom", "boom", "", 2},
		{"Exit code: 1 (No matches found)\n", noOutput, "", 1},
		{"Exit code: 137\nSignal: SIGKILL\npartial", "partial", "SIGKILL", 137},
		{"Exit code: x\nboom", "Exit code: x\nboom", "", -1},
		{"Signal: SIGTERM\nout", "Signal: SIGTERM\nout", "", -1},
	} {
		got, rep := commandCodeShellStatus(tc.in)
		exit := -1
		if rep.exitCode != nil {
			exit = *rep.exitCode
		}
		if got != tc.want || exit != tc.exit || rep.signal != tc.signal {
			t.Errorf("commandCodeShellStatus(%q) = %q, %d, %q; want %q, %d, %q", tc.in, got, exit, rep.signal, tc.want, tc.exit, tc.signal)
		}
	}
}
