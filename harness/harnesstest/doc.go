// Package harnesstest holds fake Claude Code and Codex CLIs for end-to-end
// tests of ai-memory. They are the test oracle for the launcher: they accept
// the same flags as the real CLIs (rejecting unknown ones), write native
// transcripts with the real store layout and record shapes (Claude Code
// 2.1.332, Codex 0.171.0), run Claude SessionStart hooks from --settings and
// honour Codex -c developer_instructions / model_instructions_file the way the
// real CLIs do, and log every invocation as one JSON line to
// $FAKE_HARNESS_LOG, including the handoff text that would reach the model.
//
// Register them with testscript.Main under the names "claude" and "codex":
//
//	testscript.Main(m, map[string]func(){
//		"claude": func() { os.Exit(harnesstest.FakeClaudeMain()) },
//		"codex":  func() { os.Exit(harnesstest.FakeCodexMain()) },
//	})
//
// Behaviour knobs (environment): FAKE_HARNESS_LOG=<file> appends the
// invocation log; FAKE_EXIT=N exits N after writing; FAKE_SLEEP=<duration>
// sleeps before exit (and between records with FAKE_SLOW=1);
// FAKE_KILL=SIGNAME kills the process with that signal after writing;
// FAKE_PARTIAL=1 leaves the last transcript line without its newline.
// Prompts: RUN_TOOL adds a shell tool call; EDIT_TOOL (Codex) an
// apply_patch edit of parser.go and parser_test.go.
package harnesstest
