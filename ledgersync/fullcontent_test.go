package ledgersync

import (
	"context"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/ledger"
)

// TestPushKeepsIdsOfCutContent: an event longer than the stored cap is
// copied with its whole content (from the source's segment), so it keeps
// its id and a later import of the same record into the shared ledger is
// a duplicate, not a second copy.
func TestPushKeepsIdsOfCutContent(t *testing.T) {
	ctx := context.Background()
	src := openAt(t, t.TempDir())
	ws, err := src.SelectWorkstream(ctx, ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w"}, ledger.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	long := ledger.EventInput{Harness: "claude", NativeSessionID: "s", SourceRecordID: "big", Kind: ledger.KindToolResult,
		Content: strings.Repeat("output line\n", ledger.MaxContentBytes/6)}
	if _, err := src.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, Events: []ledger.EventInput{long}}); err != nil {
		t.Fatal(err)
	}
	dst := openAt(t, t.TempDir())
	if _, err := Push(ctx, src, dst); err != nil {
		t.Fatal(err)
	}
	list, _ := dst.ListWorkstreams(ctx, ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w"})
	res, err := dst.Append(ctx, ledger.Batch{WorkstreamID: list[0].ID, Events: []ledger.EventInput{long}})
	if err != nil || res.Added != 0 {
		t.Fatalf("the original record after the push: %+v, %v; want it recognised (0 added)", res, err)
	}
	evs, _ := dst.EventsAfter(ctx, list[0].ID, 0, 10, 0)
	if len(evs) != 1 || evs[0].EventID != ledger.EventID(long) {
		t.Fatalf("pushed %d events, id %v; want 1 with the original id", len(evs), evs)
	}
}
