package harnesstest

// Fake is the fake CLI of one registered harness, for test tables that run
// the same scenario against every harness.
type Fake struct {
	// Harness is the descriptor name the fake stands in for.
	Harness string
	// Main runs the fake as a process (for testscript.Main).
	Main func() int
	// Print is the argv that runs one noninteractive turn of the prompt
	// that follows it (e.g. "-p" or "exec").
	Print []string
	// run drives the fake in-process.
	run func(invocation) int
}

// fakes lists one fake per registered harness; a conformance test fails
// when a registered harness has none.
var fakes = []Fake{
	{Harness: "claude", Main: FakeClaudeMain, Print: []string{"-p"}, run: runClaude},
	{Harness: "codex", Main: FakeCodexMain, Print: []string{"exec"}, run: runCodex},
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
