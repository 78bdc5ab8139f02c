package sqlite

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// testClock is a settable clock for DB.Now.
type testClock struct{ t time.Time }

func (c *testClock) Now() time.Time          { return c.t }
func (c *testClock) Advance(d time.Duration) { c.t = c.t.Add(d) }

// openTest opens a ledger in a temp dir with an injected clock.
func openTest(t testing.TB) (*DB, *testClock) {
	t.Helper()
	db, err := Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	clk := &testClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	db.Now = clk.Now
	return db, clk
}

var testScope = ledger.Scope{RepoFingerprint: "repo-a", WorktreeFingerprint: "wt-1", Cwd: "/src/a"}

// mustWorkstream selects (creating) a workstream by name.
func mustWorkstream(t testing.TB, db *DB, name string) ledger.Workstream {
	t.Helper()
	ws, err := db.SelectWorkstream(context.Background(), testScope, ledger.Selector{Name: name, Create: true})
	if err != nil {
		t.Fatalf("create workstream %q: %v", name, err)
	}
	return ws
}

// msgs builds n message events of one session with distinct content.
func msgs(session string, from, n int, text string) []ledger.EventInput {
	out := make([]ledger.EventInput, n)
	for i := range out {
		out[i] = ledger.EventInput{Harness: "claude", NativeSessionID: session, SourceRecordID: fmt.Sprintf("rec-%d", from+i),
			Kind: ledger.KindMessage, Role: "user", OccurredAt: time.Date(2026, 3, 1, 11, 0, from+i, 0, time.UTC),
			Content: fmt.Sprintf("%s number %d", text, from+i)}
	}
	return out
}

func mustAppend(t testing.TB, db *DB, b ledger.Batch) ledger.AppendResult {
	t.Helper()
	res, err := db.Append(context.Background(), b)
	if err != nil {
		t.Fatalf("Append: %v", err)
	}
	return res
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
