package transcript

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func requireReal(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("testdata/real/READY"); err != nil {
		t.Skip("real transcripts not captured (testdata/real/READY missing)")
	}
}

// TestRealResumeIsIncremental: print.jsonl is a prefix of print-resume.jsonl
// (the same session before and after a resume). Carrying the cursor of the
// first over to the second imports exactly the resumed turn, without
// re-importing or losing anything; with a stale cursor it replays.
func TestRealResumeIsIncremental(t *testing.T) {
	requireReal(t)
	dirs, _ := filepath.Glob("testdata/real/*")
	for _, dir := range dirs {
		src := fixtureSource(dir + "/")
		if src == nil {
			continue
		}
		t.Run(dir, func(t *testing.T) {
			first, second := filepath.Join(dir, "print.jsonl"), filepath.Join(dir, "print-resume.jsonl")
			a := readAll(t, src, first, Cursor{}, ReadOptions{})
			full := readAll(t, src, second, Cursor{}, ReadOptions{})
			c := a.last(Cursor{})
			c.Path = second // the same file, before the resume appended to it
			delta := readAll(t, src, second, c, ReadOptions{})
			got := append(eventKeys(a.events), eventKeys(delta.events)...)
			if !reflect.DeepEqual(got, eventKeys(full.events)) {
				t.Fatalf("prefix + delta = %d events, full read = %d", len(got), len(full.events))
			}
			if len(delta.events) == 0 || hasLoss(delta.losses, "rewritten") {
				t.Fatalf("delta: %d events, losses %v", len(delta.events), delta.losses)
			}
			if last := delta.events[len(delta.events)-1]; !strings.HasPrefix(last.Content, "ACK: again") {
				t.Fatalf("last resumed event %q", last.Content)
			}
		})
	}
}

// TestRealDeliveredContextNotImported: the context delivered through
// Claude's SessionStart hook and Codex's developer_instructions never
// becomes an event.
func TestRealDeliveredContextNotImported(t *testing.T) {
	requireReal(t)
	paths, _ := filepath.Glob("testdata/real/*/context.jsonl")
	if len(paths) == 0 {
		t.Skip("no context.jsonl captured")
	}
	for _, p := range paths {
		r := readAll(t, fixtureSource(p), p, Cursor{}, ReadOptions{})
		for _, e := range r.events {
			if strings.Contains(e.Content, "_CONTEXT") || strings.Contains(e.Content, PacketMarkerPrefix) {
				t.Errorf("%s: delivered context imported: %q", p, e.Content)
			}
		}
		if len(r.events) != 4 {
			t.Errorf("%s: %d events, want the 4 prompts and replies", p, len(r.events))
		}
	}
}

func TestRealCodexBaseInstructions(t *testing.T) {
	requireReal(t)
	paths, _ := filepath.Glob("testdata/real/codex*/print.jsonl")
	for _, p := range paths {
		text, err := CodexBaseInstructions(p)
		if err != nil || len(text) < 100 {
			t.Errorf("%s: %d chars, %v", p, len(text), err)
		}
	}
}
