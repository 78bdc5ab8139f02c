package sessionindex

import "testing"

func TestDetectRuntime(t *testing.T) {
	tests := []struct {
		name        string
		env         map[string]string
		native      []Native
		rt, native_ string // want
	}{
		{name: "nothing"},
		{name: "agent variable", native: []Native{{"agent-a", "019f"}}, rt: "agent-a", native_: "019f"},
		{name: "first agent wins", native: []Native{{"agent-a", "x"}, {"agent-b", "y"}}, rt: "agent-a", native_: "x"},
		{name: "agent beats launcher", env: map[string]string{"AI_MEMORY_HARNESS": "agent-b"}, native: []Native{{"Agent-A", "x"}}, rt: "agent-a", native_: "x"},
		{name: "launcher with id", env: map[string]string{"AI_MEMORY_HARNESS": "Agent-B", "AI_MEMORY_NATIVE_SESSION_ID": "u1"}, rt: "agent-b", native_: "u1"},
		{name: "launcher without id", env: map[string]string{"AI_MEMORY_HARNESS": "agent-b"}, rt: "agent-b"},
		{name: "launcher junk name", env: map[string]string{"AI_MEMORY_HARNESS": "a b"}},
		{name: "blank values", native: []Native{{"agent-a", "  "}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, native := DetectRuntime(func(k string) string { return tt.env[k] }, tt.native)
			if rt != tt.rt || native != tt.native_ {
				t.Fatalf("got (%q, %q), want (%q, %q)", rt, native, tt.rt, tt.native_)
			}
		})
	}
}

func TestDisabledByEnv(t *testing.T) {
	for v, want := range map[string]bool{"": false, "1": false, "on": false, "0": true, "false": true, " OFF ": true, "no": true} {
		if got := DisabledByEnv(func(string) string { return v }); got != want {
			t.Errorf("AI_MEMORY_SESSION_INDEX=%q: %v, want %v", v, got, want)
		}
	}
}

func TestEnabled(t *testing.T) {
	plain, git, marked := t.TempDir(), t.TempDir(), t.TempDir()
	writeIndex(t, marked, "{}")
	mustMkdir(t, git+"/.git")
	for dir, want := range map[string]bool{plain: false, git: true, marked: true, "": false} {
		if got := Enabled(dir); got != want {
			t.Errorf("Enabled(%q) = %v, want %v", dir, got, want)
		}
	}
}
