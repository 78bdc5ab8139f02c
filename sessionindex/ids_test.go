package sessionindex

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// An id freed by eviction is never handed out again: the index remembers
// the highest suffix it issued per minute prefix.
func TestStartNeverReusesEvictedIDs(t *testing.T) {
	s, clk, _ := newStore(t)
	writeIndex(t, s.Root, `{"sessions": [], "history_limit": 2}`)
	seen := map[string]bool{}
	for i := 0; i < 6; i++ {
		res := mustStart(t, s, StartOptions{Runtime: "codex", NativeID: fmt.Sprintf("n%d", i)})
		if seen[res.Session.ID] {
			t.Fatalf("start %d: id %s issued twice", i, res.Session.ID)
		}
		seen[res.Session.ID] = true
		if _, err := s.End("codex", fmt.Sprintf("n%d", i)); err != nil {
			t.Fatal(err)
		}
		clk.Add(time.Second) // same minute
	}
	if got := len(mustLoad(t, s).Sessions); got > 2 {
		t.Fatalf("%d records kept, limit 2", got)
	}
	if f := readIndexFile(t, s.Root); !strings.Contains(f, `"id_high_water": {`) ||
		!strings.Contains(f, `"20260804-1641-codex": 4`) {
		t.Fatalf("high-water mark not written:\n%s", f)
	}
}

// The high-water map keeps only recent minutes (an older minute cannot come
// back unless the clock is set back by more than a day) and round-trips.
func TestHighWaterPrunedAndPreserved(t *testing.T) {
	tests := []struct {
		name, file string
		want       map[string]int
	}{
		{"old minute dropped", `{"sessions": [], "id_high_water": {"20260801-0000-codex": 3, "20260804-1600-claude": 2}}`,
			map[string]int{"20260804-1600-claude": 2}},
		{"absent stays empty", `{"sessions": []}`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _, _ := newStore(t)
			writeIndex(t, s.Root, tc.file)
			mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "x"})
			ix := mustLoad(t, s)
			if fmt.Sprint(ix.IDHighWater) != fmt.Sprint(tc.want) {
				t.Fatalf("high water %v, want %v", ix.IDHighWater, tc.want)
			}
			if tc.want == nil && strings.Contains(readIndexFile(t, s.Root), "id_high_water") {
				t.Fatal("empty high-water map written")
			}
		})
	}
}

func TestNextIDStartsAboveHighWater(t *testing.T) {
	now := time.Date(2026, 8, 4, 16, 41, 0, 0, time.UTC)
	tests := []struct {
		hw   map[string]int
		want string
	}{
		{nil, "20260804-1641-codex"},
		{map[string]int{"20260804-1641-codex": 1}, "20260804-1641-codex-2"},
		{map[string]int{"20260804-1641-codex": 7}, "20260804-1641-codex-8"},
		{map[string]int{"20260804-1641-claude": 7}, "20260804-1641-codex"},
	}
	for _, tc := range tests {
		ix := &Index{IDHighWater: tc.hw}
		if got := nextID(ix, now, "codex"); got != tc.want {
			t.Errorf("nextID with %v = %s, want %s", tc.hw, got, tc.want)
		}
	}
}
