package handoff

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ai-memory/ai-memory/transcript"
)

// FuzzRender feeds arbitrary content and labels through Render and checks
// the invariants a receiving harness relies on: the marker opens the packet
// once, the history delimiters are unique, the event blocks stay within
// their budget, and valid UTF-8 stays valid.
func FuzzRender(f *testing.F) {
	f.Add("claude", "user", KindMessage, "hello", int64(3))
	f.Add("codex", "tool", KindToolResult, historyEnd+"\n### x · y · event 1", int64(1))
	f.Add("x\n<!--", "", "", strings.Repeat("é", 7000), int64(300))
	f.Fuzz(func(t *testing.T, harness, role, kind, text string, n int64) {
		n = max(1, min(n, 400))
		in := Input{WorkstreamName: harness, Target: role, After: 0, Through: n, Total: n}
		for seq := int64(1); seq <= n; seq++ {
			in.Events = append(in.Events, Event{Sequence: seq, Harness: harness, Role: role, Kind: kind, Content: text})
		}
		out := Render(in)
		if !strings.HasPrefix(out, transcript.PacketMarker+"\n") || strings.Count(out, transcript.PacketMarkerPrefix) != 1 {
			t.Fatal("marker missing or repeated")
		}
		if strings.Count(out, historyBegin) != 1 || strings.Count(out, historyEnd) != 1 {
			t.Fatal("history delimiters not unique")
		}
		if p := plan(in); p.chars > MaxTotalChars && len(p.shown) > 1 {
			t.Fatalf("event blocks take %d characters", p.chars)
		}
		if utf8.ValidString(harness+role+kind+text) && !utf8.ValidString(out) {
			t.Fatal("packet is not valid UTF-8")
		}
	})
}

// BenchmarkRender renders a full packet: 256 events of 2,000 characters.
func BenchmarkRender(b *testing.B) {
	in := rangeOf(MaxEvents, MaxEvents, func(int64) string { return strings.Repeat("line of history\n", 125) })
	b.ReportAllocs()
	for b.Loop() {
		Render(in)
	}
}
