package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
)

// removeLedgerFiles deletes ledger.db and its WAL files, as a user
// recovering from a corrupt ledger does.
func removeLedgerFiles(t *testing.T, home string) {
	t.Helper()
	for _, s := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(filepath.Join(home, "ledger.db"+s)); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
}

// A ledger written before state snapshots existed gains them on open, so
// afterwards its segments alone rebuild everything: workstreams, runs,
// links with their cursors and events, exactly as the schema-1 code
// returned them (golden.json).
func TestRebuild_FromSegmentsAloneAfterUpgrade(t *testing.T) {
	ctx := context.Background()
	home, golden := extractFixture(t)
	db, err := Open(ctx, home)
	must(t, err)
	db.Close()
	removeLedgerFiles(t, home)

	db, err = Open(ctx, home)
	must(t, err)
	defer db.Close()
	db.Now = func() time.Time { return time.Date(2026, 3, 1, 12, 5, 0, 0, time.UTC) }
	res, err := db.Rebuild(ctx)
	if err != nil || res.Restored != 3 || res.OrphanSegments != 0 || res.Renamed != 0 {
		t.Fatalf("Rebuild = %+v, %v; want 3 workstreams restored", res, err)
	}
	for _, name := range []string{"main", "other", "default"} {
		id := goldenString(t, golden, name+"/id")
		evs, err := db.EventsInRange(ctx, id, 0, 1000, 0)
		must(t, err)
		runs, err := db.Runs(ctx, id, 100)
		must(t, err)
		links, err := db.Links(ctx, id)
		must(t, err)
		for what, v := range map[string]any{"events": evs, "runs": runs, "links": links} {
			if want := withMachine(t, golden[name+"/"+what], what, db.Machine()); !sameJSON(t, v, want) {
				t.Errorf("%s %s differ after rebuild from segments:\n got %s\nwant %.400s", name, what, mustJSON(t, v), want)
			}
		}
	}
	list, err := db.ListWorkstreams(ctx, testScope)
	must(t, err)
	if !sameJSON(t, list, golden["list"]) {
		t.Errorf("ListWorkstreams differs after rebuild from segments:\n got %s\nwant %s", mustJSON(t, list), golden["list"])
	}
	assertFTSIntact(t, db)
}

// Every state change is captured: after links, cursors, deliveries and
// run updates, a ledger rebuilt from its segments alone answers the same.
// Only the newest two snapshots are kept.
func TestRebuild_FromSegmentsAloneKeepsState(t *testing.T) {
	ctx := context.Background()
	db, clk := openTest(t)
	home := db.Home()
	a, b := mustWorkstream(t, db, "a"), mustWorkstream(t, db, "b")
	clk.Advance(time.Second)
	run, _, err := db.AcquireLease(ctx, a.ID, "claude", ledger.Owner{Host: "h", PID: 1})
	must(t, err)
	must(t, db.SetRunSession(ctx, run.ID, "s1"))
	_, err = db.LinkSession(ctx, a.ID, "claude", "s1")
	must(t, err)
	mustAppend(t, db, ledger.Batch{WorkstreamID: a.ID, RunID: "r1", Events: msgs("s1", 0, 5, "alpha"),
		Cursor: &ledger.CursorUpdate{Harness: "claude", NativeSessionID: "s1", SourceCursor: `{"offset":5}`}})
	clk.Advance(time.Second)
	mustAppend(t, db, ledger.Batch{WorkstreamID: a.ID, Events: msgs("s1", 5, 2, "no cursor")})
	must(t, db.SetRunSync(ctx, run.ID, 0, 7))
	must(t, db.MarkContextDelivered(ctx, run.ID))
	code := 3
	must(t, db.FinishRun(ctx, run.ID, &code))
	must(t, db.AdvanceDelivery(ctx, a.ID, "codex", "x9", 7))
	_, err = db.LinkSession(ctx, a.ID, "claude", "s2") // demotes s1
	must(t, err)
	// Another machine sharing the ledger: its link keeps its machine.
	other, err := OpenWith(ctx, home, Options{Machine: "other-box"})
	must(t, err)
	other.Now = clk.Now
	_, err = other.LinkSession(ctx, a.ID, "claude", "s-other")
	must(t, err)
	must(t, other.AdvanceDelivery(ctx, a.ID, "claude", "s-other", 4))
	other.Close()
	clk.Advance(time.Second)
	_, err = db.SelectWorkstream(ctx, testScope, ledger.Selector{Name: "a"})
	must(t, err)

	type answers struct {
		List   []ledger.WorkstreamSummary
		Links  []ledger.Link
		Runs   []ledger.Run
		Events []ledger.Event
		LinksB []ledger.Link
	}
	read := func() answers {
		var x answers
		var err error
		x.List, err = db.ListWorkstreams(ctx, testScope)
		must(t, err)
		x.Links, err = db.Links(ctx, a.ID)
		must(t, err)
		x.Runs, err = db.Runs(ctx, a.ID, 0)
		must(t, err)
		x.Events, err = db.EventsInRange(ctx, a.ID, 0, 100, 0)
		must(t, err)
		x.LinksB, err = db.Links(ctx, b.ID)
		must(t, err)
		return x
	}
	before := read()
	if files, _ := durable.StateFiles(db.store.StateDir(a.ID)); len(files) != 2 {
		t.Errorf("%d state snapshots kept for a; want the newest two", len(files))
	}
	db.Close()
	removeLedgerFiles(t, home)
	db2, err := Open(ctx, home)
	must(t, err)
	defer db2.Close()
	db = db2
	if res, err := db.Rebuild(ctx); err != nil || res.Restored != 2 || res.Events != 7 {
		t.Fatalf("Rebuild = %+v, %v", res, err)
	}
	if n := len(before.Links); n != 4 || before.Links[1].Machine != "other-box" {
		t.Fatalf("links before = %+v; want 4 with other-box's", before.Links)
	}
	if after := read(); mustJSON(t, after) != mustJSON(t, before) {
		t.Fatalf("rebuilt from segments differs:\n got %s\nwant %s", mustJSON(t, after), mustJSON(t, before))
	}
}

// A workstream created after the ledger was lost keeps its name; the
// restored one with the same name is renamed, not dropped.
func TestRebuild_RestoredNameTaken(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	home := db.Home()
	old := mustWorkstream(t, db, "default")
	mustAppend(t, db, ledger.Batch{WorkstreamID: old.ID, Events: msgs("s", 0, 2, "old history")})
	db.Close()
	removeLedgerFiles(t, home)
	db, err := Open(ctx, home)
	must(t, err)
	defer db.Close()
	fresh := mustWorkstream(t, db, "default")
	res, err := db.Rebuild(ctx)
	if err != nil || res.Restored != 1 || res.Renamed != 1 {
		t.Fatalf("Rebuild = %+v, %v", res, err)
	}
	got, err := db.WorkstreamByID(ctx, old.ID)
	must(t, err)
	if got.Name != "default-restored-"+old.ID[:8] {
		t.Fatalf("restored name = %q", got.Name)
	}
	if n, _ := db.CountEvents(ctx, old.ID); n != 2 {
		t.Fatalf("restored workstream has %d events; want 2", n)
	}
	if ws, _ := db.WorkstreamByID(ctx, fresh.ID); ws.Name != "default" {
		t.Fatalf("new workstream renamed to %q", ws.Name)
	}
}

// A newest snapshot torn by a power loss (it is not fsynced) is skipped:
// rebuild takes the one before.
func TestRebuild_TornNewestSnapshotFallsBack(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	home := db.Home()
	ws := mustWorkstream(t, db, "w")
	_, err := db.LinkSession(ctx, ws.ID, "claude", "s1")
	must(t, err)
	_, err = db.LinkSession(ctx, ws.ID, "claude", "s2")
	must(t, err)
	files, err := durable.StateFiles(db.store.StateDir(ws.ID))
	must(t, err)
	if len(files) != 2 {
		t.Fatalf("%d snapshots; want 2", len(files))
	}
	must(t, os.WriteFile(files[1].Path, nil, 0o600)) // torn newest
	db.Close()
	removeLedgerFiles(t, home)
	db, err = Open(ctx, home)
	must(t, err)
	defer db.Close()
	if res, err := db.Rebuild(ctx); err != nil || res.Restored != 1 {
		t.Fatalf("Rebuild = %+v, %v", res, err)
	}
	l, ok, err := db.CurrentLink(ctx, ws.ID, "claude")
	if err != nil || !ok || l.NativeSessionID != "s1" {
		t.Fatalf("current link after fallback = %+v, %v, %v; want s1 (the previous snapshot)", l, ok, err)
	}
}
