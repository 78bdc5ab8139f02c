package main

import (
	"os"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/harness"
)

func TestRegistryDrivenTexts(t *testing.T) {
	names := harness.Names()
	sugg := runSuggestion()
	for _, n := range names {
		if !strings.Contains(sugg, "`ai-memory run "+n+"`") {
			t.Errorf("runSuggestion() = %q misses %s", sugg, n)
		}
	}
	from := detectedFrom()
	for _, d := range harness.All() {
		for _, k := range d.SessionEnv {
			if !strings.Contains(from, k) {
				t.Errorf("detectedFrom() = %q misses %s", from, k)
			}
		}
	}
	if !strings.HasSuffix(from, "AI_MEMORY_HARNESS") {
		t.Errorf("detectedFrom() = %q: the launcher variable comes last", from)
	}
}

// TestRuntimeCanonical: aliases reach the session index as canonical names,
// whether typed with --runtime or set by the launcher; other agents' names
// pass through for the index to validate.
func TestRuntimeCanonical(t *testing.T) {
	for _, d := range harness.All() {
		for _, a := range append([]string{d.Name}, d.Aliases...) {
			if got := canonicalRuntime(strings.ToUpper(a)); got != d.Name {
				t.Errorf("canonicalRuntime(%q) = %q, want %q", a, got, d.Name)
			}
			env := map[string]string{"AI_MEMORY_HARNESS": a, "AI_MEMORY_NATIVE_SESSION_ID": "n1"}
			if rt, id := detectRuntime(func(k string) string { return env[k] }); rt != d.Name || id != "n1" {
				t.Errorf("detectRuntime(AI_MEMORY_HARNESS=%s) = %q, %q", a, rt, id)
			}
		}
		for _, k := range d.SessionEnv {
			env := map[string]string{k: "s1", "AI_MEMORY_HARNESS": "other-agent"}
			if rt, id := detectRuntime(func(k string) string { return env[k] }); rt != d.Name || id != "s1" {
				t.Errorf("detectRuntime(%s) = %q, %q; want %s, s1", k, rt, id, d.Name)
			}
		}
	}
	if got := canonicalRuntime("some-other-agent"); got != "some-other-agent" {
		t.Errorf("canonicalRuntime(other) = %q", got)
	}
}

// TestHookDispatch: `ai-memory hook <harness> <event>` reaches the
// descriptor's hook for every registered hook (by name or alias): inside a
// managed run it hands over the packet; outside one (no packet file) it is
// a silent success.
func TestHookDispatch(t *testing.T) {
	packet := tempFile(t, "PACKET-TEXT")
	for _, d := range harness.All() {
		for event := range d.Hooks {
			for _, name := range append([]string{d.Name}, d.Aliases...) {
				for _, managed := range []bool{true, false} {
					t.Setenv(harness.EnvPacketFile, "")
					if managed {
						t.Setenv(harness.EnvPacketFile, packet.Name())
						t.Setenv(harness.EnvPacketAckDir, t.TempDir())
					}
					in, out, errw := tempFile(t, `{"session_id":"s","hook_event_name":"SessionStart"}`), tempFile(t, ""), tempFile(t, "")
					code := run([]string{"ai-memory", "hook", name, event}, stdio{in: in, out: out, err: errw})
					got := readBack(t, out)
					if code != 0 || readBack(t, errw) != "" || strings.Contains(got, "PACKET-TEXT") != managed {
						t.Errorf("hook %s %s (managed %v): code %d, out %q, err %q", name, event, managed, code, got, readBack(t, errw))
					}
				}
			}
		}
	}
}

func tempFile(t *testing.T, content string) *os.File {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "io")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func readBack(t *testing.T, f *os.File) string {
	t.Helper()
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
