package transcript

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// goldenEvent is the stable, diff-friendly form of an Event.
type goldenEvent struct {
	Kind       string         `json:"kind"`
	Role       string         `json:"role"`
	RecordID   string         `json:"record_id"`
	BlockIndex int            `json:"block_index"`
	OccurredAt string         `json:"occurred_at,omitempty"`
	Metadata   map[string]any `json:"metadata,omitempty"`
	Content    string         `json:"content"`
}

type goldenFile struct {
	Events []goldenEvent `json:"events"`
	Losses []Loss        `json:"losses"`
	Offset int64         `json:"offset"`
}

// fixtures returns every transcript fixture with the harness it belongs to:
// the hand-written ones and, once captured, the real CLI transcripts.
func fixtures(t *testing.T) map[string]Source {
	t.Helper()
	out := map[string]Source{}
	pats := []string{"testdata/claude/*.jsonl", "testdata/codex/*.jsonl", "testdata/pi/*.jsonl", "testdata/copilot/*.jsonl", "testdata/kimi/*.jsonl", "testdata/command-code/*.jsonl"}
	// Real transcripts are captured by scripts/acceptance.sh; READY marks a
	// complete capture (files may still be written before it appears).
	if _, err := os.Stat("testdata/real/READY"); err == nil {
		pats = append(pats, "testdata/real/*/*.jsonl", "testdata/real/*/*/*.jsonl", "testdata/real/*/*/*/*.jsonl")
	}
	for _, pat := range pats {
		paths, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if src := fixtureSource(p); src != nil {
				out[p] = src
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no fixtures found")
	}
	return out
}

func fixtureSource(p string) Source {
	switch rel := filepath.ToSlash(p); {
	case strings.Contains(rel, "/claude"):
		return claudeSource{}
	case strings.Contains(rel, "/codex"):
		return codexSource{}
	case strings.Contains(rel, "/pi/") || strings.Contains(rel, "/pi-"):
		return piSource{}
	case strings.Contains(rel, "/qwen"):
		return qwenSource{}
	case strings.Contains(rel, "/omp"):
		return ompSource{}
	case strings.Contains(rel, "/copilot"):
		return copilotSource{}
	case strings.Contains(rel, "/kimi"):
		return kimiSource{}
	case strings.Contains(rel, "/command-code"):
		return commandCodeSource{}
	}
	return nil
}

func toGolden(r readResult) goldenFile {
	g := goldenFile{Events: []goldenEvent{}, Losses: r.losses, Offset: offsetOf(r.last(""))}
	if g.Losses == nil {
		g.Losses = []Loss{}
	}
	for _, e := range r.events {
		ge := goldenEvent{Kind: e.Kind, Role: e.Role, RecordID: e.RecordID, BlockIndex: e.BlockIndex,
			Metadata: e.Metadata, Content: e.Content}
		if !e.OccurredAt.IsZero() {
			ge.OccurredAt = e.OccurredAt.UTC().Format(time.RFC3339Nano)
		}
		g.Events = append(g.Events, ge)
	}
	return g
}

func goldenPath(fixture string) string {
	rel := strings.TrimPrefix(filepath.ToSlash(fixture), "testdata/")
	return filepath.Join("testdata", "golden", strings.TrimSuffix(rel, ".jsonl")+".golden")
}

// TestGolden reads every fixture and compares the events and losses with the
// golden file next to it (go test ./transcript -update regenerates them).
func TestGolden(t *testing.T) {
	for path, src := range fixtures(t) {
		t.Run(path, func(t *testing.T) {
			got, err := json.MarshalIndent(toGolden(readAll(t, src, path, Cursor(""), ReadOptions{})), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			gp := goldenPath(path)
			if *update {
				writeFile(t, gp, string(got))
				return
			}
			want, err := os.ReadFile(gp)
			if err != nil {
				t.Fatalf("missing golden file (run go test ./transcript -update): %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s; run go test ./transcript -update and review the diff\n%s", path, gp, got)
			}
		})
	}
}

// TestResumeFromEveryBatch proves cursors are exact: resuming from the
// cursor of any batch yields precisely the events after it, whatever the
// batch size, so a crash between batches neither loses nor repeats events.
func TestResumeFromEveryBatch(t *testing.T) {
	for path, src := range fixtures(t) {
		t.Run(path, func(t *testing.T) {
			want := eventKeys(readAll(t, src, path, Cursor(""), ReadOptions{}).events)
			var before []string // events of the batches up to the current one
			err := src.Read(t.Context(), Session{Path: path}, Cursor(""), ReadOptions{BatchEvents: 1}, func(b Batch) error {
				before = append(before, eventKeys(b.Events)...)
				rest := readAll(t, src, path, b.Cursor, ReadOptions{})
				if got := append(append([]string{}, before...), eventKeys(rest.events)...); !reflect.DeepEqual(got, want) {
					t.Errorf("resume from offset %d: %d events, want %d", offsetOf(b.Cursor), len(got), len(want))
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(before, want) {
				t.Fatal("batch size changed the events")
			}
		})
	}
}
