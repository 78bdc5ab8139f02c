package transcript

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
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
			a := readAll(t, src, first, Cursor(""), ReadOptions{})
			full := readAll(t, src, second, Cursor(""), ReadOptions{})
			c := a.last(Cursor(""))
			moved := fc(c)
			moved.Path = second // the same file, before the resume appended to it
			c = moved.encode()
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
		r := readAll(t, fixtureSource(p), p, Cursor(""), ReadOptions{})
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

// realModes are the capture modes of scripts/capture-fixtures.sh with the
// conversation each must import: the user prompts and assistant answers in
// order (role: content), and how many tool calls and results.
var realModes = []struct {
	mode     string
	messages []string
	tools    int
}{
	{"print", []string{"user: hello RUN_TOOL", "assistant: TOOL_DONE: hello | ACK: hello RUN_TOOL"}, 1},
	{"print-resume", []string{"user: hello RUN_TOOL", "assistant: TOOL_DONE: hello | ACK: hello RUN_TOOL",
		"user: again", "assistant: ACK: again"}, 1},
	{"context", []string{"user: hello with context", "assistant: ACK: hello with context",
		"user: resumed with context", "assistant: ACK: resumed with context"}, 0},
	{"interactive", []string{"user: hello RUN_TOOL", "assistant: TOOL_DONE: hello | ACK: hello RUN_TOOL"}, 1},
}

// TestRealVersionsPerCLI: the readers are golden-tested against at least
// two releases of each CLI, each captured in every mode.
func TestRealVersionsPerCLI(t *testing.T) {
	requireReal(t)
	for _, cli := range []string{"claude", "codex"} {
		dirs, _ := filepath.Glob("testdata/real/" + cli + "-*")
		if len(dirs) < 2 {
			t.Errorf("%s: %d versions captured (%v), want at least 2", cli, len(dirs), dirs)
		}
		for _, dir := range dirs {
			for _, m := range realModes {
				if _, err := os.Stat(filepath.Join(dir, m.mode+".jsonl")); err != nil {
					t.Errorf("%s: %v", dir, err)
				}
			}
		}
	}
}

// TestRealConversationOnce: every real transcript, of every version, yields
// each prompt and answer exactly once and in order (nothing mirrored by
// another record type is imported twice, nothing is lost), one event per
// tool call and result, and no two events with the same identity.
func TestRealConversationOnce(t *testing.T) {
	requireReal(t)
	for _, m := range realModes {
		paths, _ := filepath.Glob("testdata/real/*/" + m.mode + ".jsonl")
		for _, p := range paths {
			t.Run(p, func(t *testing.T) {
				r := readAll(t, fixtureSource(p), p, Cursor(""), ReadOptions{})
				var msgs []string
				kinds := map[string]int{}
				ids := map[string]bool{}
				for _, e := range r.events {
					kinds[e.Kind]++
					if e.Kind == KindMessage {
						msgs = append(msgs, e.Role+": "+e.Content)
					}
					id := e.Kind + "|" + e.RecordID + "|" + strconv.Itoa(e.BlockIndex)
					if ids[id] {
						t.Errorf("event %s imported twice", id)
					}
					ids[id] = true
				}
				if !reflect.DeepEqual(msgs, m.messages) {
					t.Errorf("messages %q, want %q", msgs, m.messages)
				}
				if kinds[KindToolCall] != m.tools || kinds[KindToolResult] != m.tools {
					t.Errorf("%d tool calls, %d results, want %d each", kinds[KindToolCall], kinds[KindToolResult], m.tools)
				}
			})
		}
	}
}
