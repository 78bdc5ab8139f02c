package sessionindex

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// fakeClock is an injectable Store.Now that only moves when told to.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock(s string) *fakeClock {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return &fakeClock{t: t}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// newStore returns a Store on a fresh project dir with a fake clock and a
// captured warning stream.
func newStore(t *testing.T) (*Store, *fakeClock, *bytes.Buffer) {
	t.Helper()
	clk := newClock("2026-08-04T16:41:42Z")
	warn := &bytes.Buffer{}
	return &Store{Root: t.TempDir(), Now: clk.Now, Warn: warn}, clk, warn
}

func writeIndex(t *testing.T, root, content string) {
	t.Helper()
	p := Path(root)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readIndexFile(t *testing.T, root string) string {
	t.Helper()
	b, err := os.ReadFile(Path(root))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustStart(t *testing.T, s *Store, o StartOptions) StartResult {
	t.Helper()
	res, err := s.Start(o)
	if err != nil {
		t.Fatalf("Start(%+v): %v", o, err)
	}
	return res
}

func mustLoad(t *testing.T, s *Store) Index {
	t.Helper()
	ix, err := s.Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return ix
}

func ids(rs []Record) []string {
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func statusOf(t *testing.T, s *Store, id string) string {
	t.Helper()
	ix := mustLoad(t, s)
	i := ix.Find(id)
	if i < 0 {
		t.Fatalf("record %s missing", id)
	}
	return ix.Sessions[i].Status
}

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}
