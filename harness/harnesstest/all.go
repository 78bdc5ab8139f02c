package harnesstest

// Fake is the fake CLI of one registered harness, with the vocabulary the
// shared end-to-end scenarios need to drive it and to check what the
// launcher passed it, so one scenario table runs against every harness.
type Fake struct {
	// Harness is the descriptor name the fake stands in for.
	Harness string
	// Executable is the program name the fake is installed as when it is
	// not the harness name (kiro-cli); see Command.
	Executable string
	// Main runs the fake as a process (for testscript.Main).
	Main func() int
	// Print is the argument that makes the next one a noninteractive
	// prompt ("-p PROMPT", "exec PROMPT").
	Print string
	// Vars are the scenario variables (see cmd/ai-memory/testdata/harness):
	// YOLO (native dangerous-mode flag), DELIVERY ("none" when the
	// harness has no per-run context route), SELECT (a native selector, one
	// word), VERSION_OUT (what --version prints), UTIL and UTIL_ARG (a
	// utility subcommand), STORE (the store's session directory under
	// $HOME), TRANSCRIPTS (a glob of session files under $HOME), and the
	// regular expressions FRESH_RE, RESUME_RE (print prompt, fresh and
	// resumed) and BARE_RESUME_RE (resumed without arguments) over the
	// fake's logged argv.
	Vars map[string]string
	// run drives the fake in-process.
	run func(invocation) int
}

const uuidRE = `[0-9a-f-]{36}`

// fakes lists one fake per registered harness; a conformance test fails
// when a registered harness has none.
var fakes = []Fake{
	{Harness: "claude", Main: FakeClaudeMain, Print: "-p", run: runClaude, Vars: map[string]string{
		"YOLO": "--dangerously-skip-permissions", "SELECT": "--continue",
		"VERSION_OUT": "Claude Code", "UTIL": "mcp", "UTIL_ARG": "list",
		"STORE": ".claude/projects", "TRANSCRIPTS": ".claude/projects/*/*.jsonl",
		"FRESH_RE":       `"argv":\["-p","[^"]*","--session-id","` + uuidRE + `"`,
		"RESUME_RE":      `"argv":\["-p","[^"]*","--resume","` + uuidRE + `"`,
		"BARE_RESUME_RE": `"argv":\["--resume","` + uuidRE + `"\]`,
	}},
	{Harness: "codex", Main: FakeCodexMain, Print: "exec", run: runCodex, Vars: map[string]string{
		"YOLO": "--dangerously-bypass-approvals-and-sandbox", "SELECT": "fork",
		"VERSION_OUT": "codex-cli", "UTIL": "login", "UTIL_ARG": "status",
		"STORE": ".codex/sessions", "TRANSCRIPTS": ".codex/sessions/*/*/*/rollout-*.jsonl",
		// A packet, when owed, comes first as -c developer_instructions=... or
		// -c model_instructions_file=...
		"FRESH_RE":       `"argv":\[(.*,)?"exec","[^"]*"\]`,
		"RESUME_RE":      `"argv":\[(.*,)?"exec","resume","` + uuidRE + `","[^"]*"\]`,
		"BARE_RESUME_RE": `"argv":\["resume","` + uuidRE + `"\]`,
	}},
	opencodeFake,
	geminiFake,
	// Pi has no permission gate: YOLO is empty (the wrapper's --yolo maps to
	// nothing). The packet, when owed, follows as --append-system-prompt.
	{Harness: "pi", Main: FakePiMain, Print: "-p", run: runPi, Vars: map[string]string{
		"YOLO": "", "SELECT": "--continue",
		"VERSION_OUT": PiVersion, "UTIL": "mcp", "UTIL_ARG": "list",
		"STORE": ".pi/agent/sessions", "TRANSCRIPTS": ".pi/agent/sessions/*/*.jsonl",
		"FRESH_RE":       `"argv":\["-p","[^"]*","--session-id","` + uuidRE + `"`,
		"RESUME_RE":      `"argv":\["-p","[^"]*","--session","` + uuidRE + `"`,
		"BARE_RESUME_RE": `"argv":\["--session","` + uuidRE + `"\]`,
	}},
	// Qwen's --yolo is the wrapper's token too, so YOLO is the form that
	// replaces it. The packet, when owed, follows as --append-system-prompt.
	{Harness: "qwen", Main: FakeQwenMain, Print: "-p", run: runQwen, Vars: map[string]string{
		"YOLO": "--approval-mode=yolo", "SELECT": "--continue",
		"VERSION_OUT": QwenVersion, "UTIL": "mcp", "UTIL_ARG": "list",
		"STORE": ".qwen/projects", "TRANSCRIPTS": ".qwen/projects/*/chats/*.jsonl",
		"FRESH_RE":       `"argv":\["-p","[^"]*","--session-id","` + uuidRE + `"`,
		"RESUME_RE":      `"argv":\["-p","[^"]*","--resume","` + uuidRE + `"`,
		"BARE_RESUME_RE": `"argv":\["--resume","` + uuidRE + `"\]`,
	}},
	// oh-my-pi takes no caller id: a fresh session gets no flag and is found
	// after the run. The packet, when owed, follows as --append-system-prompt.
	{Harness: "omp", Main: FakeOmpMain, Print: "-p", run: runOmp, Vars: map[string]string{
		"YOLO": "--auto-approve", "SELECT": "--continue",
		"VERSION_OUT": OmpVersion, "UTIL": "plugin", "UTIL_ARG": "list",
		"STORE": ".omp/agent/sessions", "TRANSCRIPTS": ".omp/agent/sessions/*/*.jsonl",
		"FRESH_RE":       `"argv":\["-p","[^"]*"(,"--append-system-prompt","[^"]*")?\]`,
		"RESUME_RE":      `"argv":\["-p","[^"]*","--resume","` + uuidRE + `"`,
		"BARE_RESUME_RE": `"argv":\["--resume","` + uuidRE + `"\]`,
	}},
	crushFake,
	grokFake,
	kiroFake,
	copilotFake,
	kimiFake,
	commandcodeFake,
	antigravityFake,
}

// Command is the program name the fake answers to on PATH.
func (f Fake) Command() string {
	if f.Executable != "" {
		return f.Executable
	}
	return f.Harness
}

// Fakes returns the fake CLIs in registry order.
func Fakes() []Fake { return append([]Fake(nil), fakes...) }

// FakeFor returns the fake of a harness name.
func FakeFor(name string) (Fake, bool) {
	for _, f := range fakes {
		if f.Harness == name {
			return f, true
		}
	}
	return Fake{}, false
}
