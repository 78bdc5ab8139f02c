// Package ledgertest is the conformance suite of ledger backends: every
// backend runs Run against its own ledgers and passes it, so that the
// launcher, the commands and the readers see the same behaviour whatever
// holds the ledger (docs/ledger.md, "Backends"). It covers workstreams,
// runs and leases (one writer, takeover rules), links and cursors,
// idempotent appends with their cursor, ids and sequences, conversation
// order, search semantics and Rebuild. What only one backend has (SQLite's
// migrations of old files, file modes, write amplification) stays in that
// backend's own tests.
package ledgertest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// Backend opens the ledgers under test.
type Backend struct {
	// Open opens the ledger of the data home home, creating it when new,
	// acting as the machine id machine (ledger.Where.Machine); opening the
	// same home again gives the same ledger, also as another machine (the
	// suite simulates two machines sharing one ledger that way). now
	// replaces the ledger's clock and alive its check that a lease owner's
	// process still runs (both are never nil). The suite closes what it
	// opens.
	Open func(t testing.TB, home, machine string, now func() time.Time, alive func(ledger.Owner) bool) ledger.Ledger
}

// Run runs the whole suite, one subtest per behaviour.
func Run(t *testing.T, b Backend) {
	for _, tc := range suite {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, b) })
	}
}

var suite = []struct {
	name string
	fn   func(*testing.T, Backend)
}{
	{"Lease_BusyThenExpiresAfter90s", testLease_BusyThenExpiresAfter90s},
	{"Lease_DeadOwnerTakeover", testLease_DeadOwnerTakeover},
	{"Lease_TouchesOnlyItsWorkstream", testLease_TouchesOnlyItsWorkstream},
	{"RunLifecycle", testRunLifecycle},
	{"ImportRun", testImportRun},
	{"LiveRunForSession_ExpiredOrDead", testLiveRunForSession_ExpiredOrDead},
	{"Links_DemotionAndCursors", testLinks_DemotionAndCursors},
	{"Links_PerMachine", testLinks_PerMachine},
	{"Lease_OtherMachineBlocksUntilLapse", testLease_OtherMachineBlocksUntilLapse},
	{"SelectWorkstream", testSelectWorkstream},
	{"SelectWorkstream_FrozenClockKeepsOrder", testSelectWorkstream_FrozenClockKeepsOrder},
	{"MoveScope", testMoveScope},
	{"ListWorkstreamsAndEstablished", testListWorkstreamsAndEstablished},
	{"UnknownWorkstream", testUnknownWorkstream},
	{"SpanOfInterleavedWorkstreams", testSpanOfInterleavedWorkstreams},
	{"EventsAfterAndFirstEvent", testEventsAfterAndFirstEvent},
	{"AllWorkstreamsMarksEachCheckout", testAllWorkstreamsMarksEachCheckout},
	{"Order_LateEventIsShownBeforeTheEventsItPrecedes", testOrder_LateEventIsShownBeforeTheEventsItPrecedes},
	{"Order_UnseenStaysArrivalOrder", testOrder_UnseenStaysArrivalOrder},
	{"Order_RebuildKeepsOrder", testOrder_RebuildKeepsOrder},
	{"Search_Corpus", testSearch_Corpus},
	{"Search_ScopeOrderAndLimits", testSearch_ScopeOrderAndLimits},
	{"Search_RanksByRelevance", testSearch_RanksByRelevance},
	{"Append_DropsBlankCapsAndRedacts", testAppend_DropsBlankCapsAndRedacts},
	{"Append_Prepared", testAppend_Prepared},
	{"EventsInRange_NewestLimitOldestFirst", testEventsInRange_NewestLimitOldestFirst},
	{"Lease_ExactlyOneWriter", testLease_ExactlyOneWriter},
	{"Append_ConcurrentWritersGetDistinctSequences", testAppend_ConcurrentWritersGetDistinctSequences},
	{"Append_ConcurrentReplaysStoreOnce", testAppend_ConcurrentReplaysStoreOnce},
	{"Append_CursorOnlyWithItsEvents", testAppend_CursorOnlyWithItsEvents},
	{"Rebuild_KeepsEveryAnswer", testRebuild_KeepsEveryAnswer},
}

// fixture is an open ledger with the knobs the tests turn: ProcessAlive is
// consulted through the alive function the backend was opened with.
type fixture struct {
	ledger.Ledger
	ProcessAlive func(ledger.Owner) bool
}

// testClock is a settable clock for the ledger's now.
type testClock struct{ t time.Time }

func (c *testClock) Now() time.Time          { return c.t }
func (c *testClock) Advance(d time.Duration) { c.t = c.t.Add(d) }

// The machine ids of the suite: openTest's ledger is machineA's.
const (
	machineA = "machine-a"
	machineB = "machine-b"
)

// openTest opens a fresh ledger in a temp data home with a test clock, as
// machineA.
func openTest(t testing.TB, b Backend) (*fixture, *testClock) {
	t.Helper()
	clk := &testClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	return openAs(t, b, t.TempDir(), machineA, clk), clk
}

// openAs opens the ledger of home as machine, on the clock clk.
func openAs(t testing.TB, b Backend, home, machine string, clk *testClock) *fixture {
	t.Helper()
	f := &fixture{ProcessAlive: ledger.ProcessAlive}
	f.Ledger = b.Open(t, home, machine, clk.Now, func(o ledger.Owner) bool { return f.ProcessAlive(o) })
	t.Cleanup(func() { f.Close() })
	return f
}

var testScope = ledger.Scope{RepoFingerprint: "repo-a", WorktreeFingerprint: "wt-1", Cwd: "/src/a"}

// mustWorkstream selects (creating) a workstream by name.
func mustWorkstream(t testing.TB, db ledger.Ledger, name string) ledger.Workstream {
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

func mustAppend(t testing.TB, db ledger.Ledger, b ledger.Batch) ledger.AppendResult {
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

// withMachine is o as the ledger stores it: owned on machine.
func withMachine(o ledger.Owner, machine string) ledger.Owner {
	o.Machine = machine
	return o
}
