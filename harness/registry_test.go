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
		{"opencode", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		h, ok := Lookup(tt.name)
		if ok != tt.ok || (ok && h.Name() != tt.want) {
			t.Errorf("Lookup(%q) = %v, %v; want %q, %v", tt.name, h, ok, tt.want, tt.ok)
		}
	}
}

func TestNamesAndAll(t *testing.T) {
	if got, want := Names(), []string{"claude", "codex"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	all := All()
	all[0] = nil // callers cannot change the registry
	if All()[0] == nil {
		t.Error("All() returned the registry's own slice")
	}
}

func TestNewRegistryPanicsOnDuplicate(t *testing.T) {
	for _, hs := range [][]Harness{{claude{}, claude{}}, {claude{}, aliasOf{"CLAUDE-code"}}, {codex{}, aliasOf{"Codex"}}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("newRegistry(%v) did not panic", hs)
				}
			}()
			newRegistry(hs...)
		}()
	}
}

// aliasOf is a harness whose only purpose is to clash with another's alias.
type aliasOf struct{ alias string }

func (a aliasOf) Name() string                 { return "other" }
func (a aliasOf) Aliases() []string            { return []string{a.alias} }
func (a aliasOf) Executable() string           { return "other" }
func (a aliasOf) Plan(r Request) (Plan, error) { return Plan{}, nil }

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
	for _, h := range All() {
		if h.Name() == "" || h.Executable() == "" {
			t.Errorf("%T: empty name or executable", h)
		}
		for _, r := range requests {
			before := slices.Clone(r.Args)
			p1, err1 := h.Plan(r)
			p2, err2 := h.Plan(r)
			if !reflect.DeepEqual(p1, p2) || (err1 == nil) != (err2 == nil) {
				t.Errorf("%s: Plan not deterministic for %+v", h.Name(), r)
			}
			if !reflect.DeepEqual(r.Args, before) {
				t.Errorf("%s: Plan changed the request's Args to %q", h.Name(), r.Args)
			}
			checkNoDuplicates(t, h.Name(), p1.Args)
			checkSubsequence(t, h.Name(), before, p1.Args)
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
