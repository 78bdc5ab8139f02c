package sessionindex

import "testing"

func TestDetectRuntime(t *testing.T) {
	tests := []struct {
		name       string
		env        map[string]string
		rt, native string // want
	}{
		{name: "nothing", env: nil},
		{name: "codex", env: map[string]string{"CODEX_THREAD_ID": "019f"}, rt: "codex", native: "019f"},
		{name: "claude", env: map[string]string{"CLAUDE_CODE_SESSION_ID": "c1"}, rt: "claude", native: "c1"},
		{name: "codex wins over claude", env: map[string]string{"CODEX_THREAD_ID": "x", "CLAUDE_CODE_SESSION_ID": "y"}, rt: "codex", native: "x"},
		{name: "launcher with id", env: map[string]string{"AI_MEMORY_HARNESS": "claude-code", "AI_MEMORY_NATIVE_SESSION_ID": "u1"}, rt: "claude", native: "u1"},
		{name: "launcher without id", env: map[string]string{"AI_MEMORY_HARNESS": "codex"}, rt: "codex"},
		{name: "launcher junk name", env: map[string]string{"AI_MEMORY_HARNESS": "a b"}},
		{name: "blank values", env: map[string]string{"CODEX_THREAD_ID": "  "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, native := DetectRuntime(func(k string) string { return tt.env[k] })
			if rt != tt.rt || native != tt.native {
				t.Fatalf("got (%q, %q), want (%q, %q)", rt, native, tt.rt, tt.native)
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
