package transcript

import (
	"reflect"
	"strings"
	"testing"
)

func TestCodexShellOutput(t *testing.T) {
	for _, tc := range []struct {
		name, in, out string
		meta          map[string]any
	}{
		{"unified exec", "Chunk ID: bc414c\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 2\nOutput:\nhello\n",
			"hello\n", map[string]any{MetaExitCode: 0, MetaWallTime: 0.0}},
		{"failed, no output", "Chunk ID: 3c4d\nWall time: 0.0010 seconds\nProcess exited with code 2\nOutput:\n",
			noOutput, map[string]any{MetaExitCode: 2, MetaWallTime: 0.001, "is_error": true}},
		{"still running", "Chunk ID: 1\nWall time: 1.0000 seconds\nProcess running with session ID 7\nOriginal token count: 1\nOutput:\nwaiting",
			"waiting", map[string]any{MetaWallTime: 1.0, MetaRunning: true}},
		{"command line first", "Command: /bin/zsh -lc ls\nChunk ID: 36c2f2\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 4\nOutput:\na\nb\n",
			"a\nb\n", map[string]any{MetaExitCode: 0, MetaWallTime: 0.0}},
		{"shell form, cut", "Exit code: 1\nWall time: 0.5 seconds\nTotal output lines: 900\nOutput:\nlast lines",
			"last lines", map[string]any{MetaExitCode: 1, MetaWallTime: 0.5, MetaTruncated: true, "is_error": true}},
		{"truncation notice", "Chunk ID: a\nWall time: 0.1000 seconds\nProcess exited with code 0\nOriginal token count: 10792\nOutput:\nWarning: truncated output (original token count: 10792)\nTotal output lines: 833\n\nhead…792 tokens truncated…tail",
			"head…792 tokens truncated…tail", map[string]any{MetaExitCode: 0, MetaWallTime: 0.1, MetaTruncated: true}},
		{"json form", `{"output":"hi\n","metadata":{"exit_code":0,"duration_seconds":0.25}}`,
			"hi\n", map[string]any{MetaExitCode: 0, MetaWallTime: 0.25}},
		{"other tool", "Success. Updated the following files:\nA a.txt\n", "Success. Updated the following files:\nA a.txt\n", map[string]any{}},
		{"Output: without a header", "Output:\nnot framed", "Output:\nnot framed", map[string]any{}},
		{"unknown header line", "Chunk ID: 1\nSomething: else\nOutput:\nx", "Chunk ID: 1\nSomething: else\nOutput:\nx", map[string]any{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, rep := codexShellOutput(tc.in)
			meta := map[string]any{}
			rep.apply(meta)
			if out != tc.out || !reflect.DeepEqual(meta, tc.meta) {
				t.Errorf("codexShellOutput = %q, %v; want %q, %v", out, meta, tc.out, tc.meta)
			}
		})
	}
}

func TestClaudeExitLine(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{"Exit code 1\nls: cannot access 'x'\n", "ls: cannot access 'x'\n"},
		{"Exit code 127", noOutput},
		{"Exit code one\nx", "Exit code one\nx"},
		{"File does not exist.", "File does not exist."},
	} {
		out, _ := claudeExitLine(tc.in)
		if out != tc.out {
			t.Errorf("claudeExitLine(%q) = %q; want %q", tc.in, out, tc.out)
		}
	}
}

func TestGeminiShellReport(t *testing.T) {
	for _, tc := range []struct {
		name, in, out string
		meta          map[string]any
	}{
		{"gemini 0.61", "<untrusted_context>\nOutput: hello\nProcess Group PGID: 30321\n</untrusted_context>", "hello", map[string]any{}},
		{"gemini 0.61 failed", "<untrusted_context>\nOutput: a\nb\nExit Code: 2\nProcess Group PGID: 1\n</untrusted_context>",
			"a\nb", map[string]any{MetaExitCode: 2, "is_error": true}},
		{"qwen, every line", "Command: echo hello\nDirectory: (root)\nOutput: hello\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: 42",
			"hello", map[string]any{MetaExitCode: 0}},
		{"qwen, empty", "Command: false\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 1\nSignal: (none)\nProcess Group PGID: 42",
			noOutput, map[string]any{MetaExitCode: 1, "is_error": true}},
		{"signal and error", "Output: x\nError: spawn ENOENT\nSignal: SIGKILL", "x", map[string]any{MetaError: "spawn ENOENT", MetaSignal: "SIGKILL", "is_error": true}},
		{"short form", "Command: echo hello\nOutput: hello", "hello", map[string]any{}},
		{"another tool", "<untrusted_context>\nfile text\n</untrusted_context>", "<untrusted_context>\nfile text\n</untrusted_context>", map[string]any{}},
		{"output line inside", "Read 3 lines\nOutput: x", "Read 3 lines\nOutput: x", map[string]any{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, rep := geminiShellReport(tc.in)
			meta := map[string]any{}
			rep.apply(meta)
			if out != tc.out || !reflect.DeepEqual(meta, tc.meta) {
				t.Errorf("geminiShellReport = %q, %v; want %q, %v", out, meta, tc.out, tc.meta)
			}
		})
	}
}

func TestPiBashStatus(t *testing.T) {
	for _, tc := range []struct {
		name, in, out string
		meta          map[string]any
	}{
		{"ok", "hello\n", "hello\n", map[string]any{}},
		{"failed", "ls: x: No such file\n\n\nCommand exited with code 2", "ls: x: No such file\n", map[string]any{MetaExitCode: 2, "is_error": true}},
		{"failed, no output", "Command exited with code 1", noOutput, map[string]any{MetaExitCode: 1, "is_error": true}},
		{"cut", "tail\n\n[Showing lines 10-20 of 20. Full output: /tmp/pi-bash-1.log]", "tail", map[string]any{MetaTruncated: true}},
		{"cut and failed", "tail\n\n[Showing lines 10-20 of 20. Full output: /tmp/x.log]\n\nCommand exited with code 3", "tail",
			map[string]any{MetaTruncated: true, MetaExitCode: 3, "is_error": true}},
		{"text that mentions it", "Command exited with code zero", "Command exited with code zero", map[string]any{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, rep := piBashStatus(tc.in)
			meta := map[string]any{}
			rep.apply(meta)
			if out != tc.out || !reflect.DeepEqual(meta, tc.meta) {
				t.Errorf("piBashStatus = %q, %v; want %q, %v", out, meta, tc.out, tc.meta)
			}
		})
	}
}

// FuzzToolFraming: the framing parsers never panic, and what they keep of
// a text is part of it (or the no-output note); a JSON-form Codex output is
// decoded, so only its length is bounded.
func FuzzToolFraming(f *testing.F) {
	for _, s := range []string{
		"Chunk ID: a\nWall time: 0.1 seconds\nProcess exited with code 1\nOriginal token count: 2\nOutput:\nx\n",
		"Exit code: 0\nWall time: 1 seconds\nTotal output lines: 3\nOutput:\nWarning: truncated output (original token count: 9)\nTotal output lines: 3\n\nab",
		`{"output":"x","metadata":{"exit_code":2,"duration_seconds":1}}`,
		"<untrusted_context>\nOutput: a\nExit Code: 3\nProcess Group PGID: 1\n</untrusted_context>",
		"Command: c\nDirectory: d\nOutput: (empty)\nError: (none)\nExit Code: 1\nSignal: (none)\nProcess Group PGID: (none)",
		"Exit code 2\nerr", "out\n\n[Showing lines 1-2 of 9. Full output: /tmp/f]\n\nCommand exited with code 4",
		"hello\n<shellId: 0 completed with exit code 0>", "<detached command with shellId: 1 completed with exit code 2>\n",
		"hello\n\n\nWall time: 2.34 seconds", "x\n\nWall time: 0.10 seconds\n\nCommand exited with code 3",
		"oops\nCommand failed with exit code: 2.", "Process exited with code 7\nCommand failed with exit code: 7.",
		"\nboom\nExit code 2\n\n<cwd>/w</cwd>", `{"start_time":1,"end_time":2}`,
		"Exit code: 137\nSignal: SIGKILL\npartial", "Exit code: 1 (No matches found)\n",
		"exit: 0 [truncated: showing first/last 1 KB of 9 KB - full output at: /tmp/o] [signal=SIGPIPE]\nx", "exit: killed (timeout)\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for name, parse := range map[string]func(string) (string, execReport){
			"codex": codexShellOutput, "gemini": geminiShellReport, "pi": piBashStatus, "claude": claudeExitLine,
			"copilot": copilotShellStatus, "omp": ompBashStatus, "kimi": kimiShellStatus,
			"command-code": commandCodeShellStatus, "grok": grokBashStatus,
			"crush": func(s string) (string, execReport) { return crushBashStatus(s, s) },
		} {
			out, rep := parse(in)
			rep.apply(map[string]any{})
			if out == noOutput || strings.HasPrefix(in, "{") && name == "codex" {
				if len(out) > len(in)+len(noOutput) {
					t.Fatalf("%s: %q grew to %q", name, in, out)
				}
				continue
			}
			if !strings.Contains(in, out) {
				t.Fatalf("%s: %q is not part of %q", name, out, in)
			}
		}
	})
}
