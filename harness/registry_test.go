package harness

import (
	"reflect"
	"slices"
	"testing"
)

func TestLookup(t *testing.T) {
	tests := []struct {
		name, want string
		ok         bool
	}{
		{"claude", "claude", true},
		{"Claude", "claude", true},
		{"claude-code", "claude", true},
		{"CLAUDE-CODE", "claude", true},
		{"codex", "codex", true},
		{" codex ", "codex", true},
		{"claude-corp", "", false},
		{"opencode", "opencode", true},
		{"Open-Code", "opencode", true},
		{"opencode-ai", "", false},
		{"Qwen-Code", "qwen", true},
		{"oh-my-pi", "omp", true},
		{"AGY", "antigravity", true},
		{"antigravity-cli", "antigravity", true},
		{"", "", false},
	}
	for _, tt := range tests {
		h, ok := Lookup(tt.name)
		if ok != tt.ok || (ok && h.Name != tt.want) {
			t.Errorf("Lookup(%q) = %v, %v; want %q, %v", tt.name, h, ok, tt.want, tt.ok)
		}
	}
}

func TestNamesAndAll(t *testing.T) {
	if got, want := Names(), []string{"antigravity", "claude", "codex", "command-code", "copilot", "crush", "gemini", "grok", "kimi", "kiro", "omp", "opencode", "pi", "qwen"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	all := All()
	all[0].Name = "changed" // callers cannot change the registry
	if All()[0].Name == "changed" {
		t.Error("All() returned the registry's own slice")
	}
}

func TestNewRegistryPanicsOnBadList(t *testing.T) {
	incomplete := claudeDescriptor()
	incomplete.Source = nil
	foreign := claudeDescriptor()
	foreign.Name, foreign.Aliases = "other", nil // its source reads another harness
	for _, ds := range [][]Descriptor{
		{claudeDescriptor(), claudeDescriptor()},
		{claudeDescriptor(), aliasOf(codexDescriptor(), "CLAUDE-code")},
		{codexDescriptor(), aliasOf(claudeDescriptor(), "Codex")},
		{incomplete}, {foreign},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("newRegistry(%v) did not panic", names(ds))
				}
			}()
			newRegistry(ds...)
		}()
	}
}

// aliasOf is d with an extra alias, to clash with another harness's name.
func aliasOf(d Descriptor, alias string) Descriptor {
	d.Aliases = append(append([]string(nil), d.Aliases...), alias)
	return d
}

func names(ds []Descriptor) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}

func TestUsageAndUnknown(t *testing.T) {
	if got, want := Usage(), "claude (claude-code), codex, opencode (open-code), gemini (gemini-cli), pi (pi-coding-agent), qwen (qwen-code), omp (oh-my-pi), crush, grok (grok-build), kiro (kiro-cli), copilot (copilot-cli, github-copilot), kimi (kimi-code), command-code (commandcode), antigravity (agy, antigravity-cli)"; got != want {
		t.Errorf("Usage() = %q, want %q", got, want)
	}
	if got := UnknownError("nope").Error(); got != `unknown harness "nope"; known harnesses: antigravity, claude, codex, command-code, copilot, crush, gemini, grok, kimi, kiro, omp, opencode, pi, qwen` {
		t.Errorf("UnknownError = %q", got)
	}
	if got, want := StoreEnv(), []string{"CLAUDE_CONFIG_DIR", "CODEX_HOME", "XDG_DATA_HOME", "GEMINI_CLI_HOME", "PI_CODING_AGENT_DIR", "PI_CODING_AGENT_SESSION_DIR", "QWEN_RUNTIME_DIR", "QWEN_HOME", "PI_CONFIG_DIR", "CRUSH_GLOBAL_DATA", "GROK_HOME", "KIRO_HOME", "COPILOT_HOME", "KIMI_CODE_HOME"}; !reflect.DeepEqual(got, want) {
		t.Errorf("StoreEnv() = %v, want %v", got, want)
	}
}

func TestDetectRuntimes(t *testing.T) {
	env := map[string]string{"CODEX_THREAD_ID": " t1 ", "CLAUDE_CODE_SESSION_ID": "c1"}
	got := DetectRuntimes(func(k string) string { return env[k] })
	want := []Runtime{{"claude", "c1"}, {"codex", "t1"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DetectRuntimes = %v, want %v", got, want)
	}
	if got := DetectRuntimes(func(string) string { return " " }); got != nil {
		t.Errorf("blank variables detected %v", got)
	}
}

// TestConformance runs the checks every harness must pass: identity is set,
// Plan is deterministic, never changes the caller's argv, never duplicates a
// flag it adds, and keeps the user's arguments in order.
func TestConformance(t *testing.T) {
	requests := []Request{
		{Args: []string{"fix", "--yolo"}, NewSessionID: "n", StdinTTY: true},
		{Args: []string{"--model", "x", "hello"}, LinkedSessionID: "l", Yolo: true, NewSessionID: "n"},
		{Args: []string{"exec", "hi"}, Packet: "P", RunDir: "/run", HookCommand: []string{"/bin/hook"}, NewSessionID: "n", BaseInstructions: "B"},
		{Args: []string{"exec", "hi"}, Packet: "P", RunDir: "/run", HookCommand: []string{"/bin/hook"}, NewSessionID: "n", LinkedSessionID: "l", BaseInstructions: "B"},
	}
	for _, d := range All() {
		h := d.Planner
		for _, r := range requests {
			before := slices.Clone(r.Args)
			p1, err1 := planWith(h, r)
			p2, err2 := planWith(h, r)
			if !reflect.DeepEqual(p1, p2) || (err1 == nil) != (err2 == nil) {
				t.Errorf("%s: Plan not deterministic for %+v", d.Name, r)
			}
			if !reflect.DeepEqual(r.Args, before) {
				t.Errorf("%s: Plan changed the request's Args to %q", d.Name, r.Args)
			}
			checkNoDuplicates(t, d.Name, p1.Args)
			checkSubsequence(t, d.Name, before, p1.Args)
		}
	}
}

// checkNoDuplicates fails when a wrapper-added flag appears twice.
func checkNoDuplicates(t *testing.T, name string, args []string) {
	t.Helper()
	for _, flag := range []string{claudeYolo, codexYolo, claudeSessionIDOpt, claudeResumeOpt, claudeSettingsOpt} {
		if n := countOf(args, flag); n > 1 {
			t.Errorf("%s: %s appears %d times in %q", name, flag, n, args)
		}
	}
}

// checkSubsequence fails unless the user's args (minus the wrapper's
// --yolo) appear in got in the same order.
func checkSubsequence(t *testing.T, name string, user, got []string) {
	t.Helper()
	j := 0
	for _, a := range got {
		for j < len(user) && user[j] == wrapperYolo {
			j++
		}
		if j < len(user) && a == user[j] {
			j++
		}
	}
	for j < len(user) && user[j] == wrapperYolo {
		j++
	}
	if j != len(user) {
		t.Errorf("%s: user args %q not kept in order in %q", name, user, got)
	}
}

func countOf(args []string, s string) int {
	n := 0
	for _, a := range args {
		if a == s {
			n++
		}
	}
	return n
}
