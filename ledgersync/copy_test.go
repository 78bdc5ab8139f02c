package ledgersync

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/sqlite"
)

// srcLedger is a local ledger with a finished run (events, a linked
// session with its cursor), events of an import, and an active run.
type srcLedger struct {
	db               ledger.Ledger
	ws               ledger.Workstream
	done, active     ledger.Run
	doneEv, activeEv int
}

func openAt(t *testing.T, home string) ledger.Ledger {
	t.Helper()
	db, err := sqlite.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func newSrc(t *testing.T, home string) *srcLedger {
	t.Helper()
	ctx := context.Background()
	s := &srcLedger{db: openAt(t, home)}
	var err error
	s.ws, err = s.db.SelectWorkstream(ctx, ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w", Cwd: "/src"}, ledger.Selector{Name: "feature", Create: true})
	if err != nil {
		t.Fatal(err)
	}
	f := &runFixture{ws: s.ws}
	owner := ledger.Owner{Host: ledger.CurrentOwner().Host, PID: 1 << 30}
	if s.done, _, err = s.db.AcquireLease(ctx, s.ws.ID, "claude", owner); err != nil {
		t.Fatal(err)
	}
	f.run = s.done
	if _, err := s.db.Append(ctx, f.batch(0, 3)); err != nil {
		t.Fatal(err)
	}
	must(t, s.db.SetRunSession(ctx, s.done.ID, "s"))
	if _, err := s.db.LinkSession(ctx, s.ws.ID, "claude", "s"); err != nil {
		t.Fatal(err)
	}
	code := 0
	must(t, s.db.FinishRun(ctx, s.done.ID, &code))
	f.run = ledger.Run{} // an import: no run
	if _, err := s.db.Append(ctx, f.batch(3, 2)); err != nil {
		t.Fatal(err)
	}
	if s.active, _, err = s.db.AcquireLease(ctx, s.ws.ID, "codex", ledger.CurrentOwner()); err != nil {
		t.Fatal(err)
	}
	f.run = s.active
	b := f.batch(5, 1)
	b.Cursor = nil
	if _, err := s.db.Append(ctx, b); err != nil {
		t.Fatal(err)
	}
	s.doneEv, s.activeEv = 3, 1
	return s
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestPush copies a local ledger into another one: the workstream by
// checkout and name, ended runs as they were, their events and the
// imports' in order, links with cursors; an active run and its events
// wait. A second push adds nothing.
func TestPush(t *testing.T) {
	ctx := context.Background()
	s := newSrc(t, t.TempDir())
	dst := openAt(t, t.TempDir())
	c, err := Push(ctx, s.db, dst)
	if err != nil {
		t.Fatal(err)
	}
	if c != (Copied{Workstreams: 1, Runs: 1, Events: 5, Added: 5, Active: 1}) {
		t.Fatalf("Push = %+v", c)
	}
	list, err := dst.ListWorkstreams(ctx, ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w"})
	if err != nil || len(list) != 1 || list[0].Name != "feature" {
		t.Fatalf("dst workstreams = %+v, %v", list, err)
	}
	to := list[0].ID
	if got := contentsOf(t, dst, to); strings.Join(got, ",") != strings.Join(want(0, 5), ",") {
		t.Fatalf("pushed %v; want %v", got, want(0, 5))
	}
	r, err := dst.Run(ctx, s.done.ID)
	if err != nil || r.State != ledger.RunFinished || r.WorkstreamID != to || r.NativeSessionID != "s" {
		t.Fatalf("pushed run = %+v, %v", r, err)
	}
	if sp, _ := dst.SpanOf(ctx, r); sp.Events() != 3 {
		t.Fatalf("pushed run spans %d events; want 3", sp.Events())
	}
	link, ok, err := dst.CurrentLink(ctx, to, "claude")
	if err != nil || !ok || link.NativeSessionID != "s" || link.SourceCursor != "5" {
		t.Fatalf("pushed link = %+v %v %v; want current s with cursor 5", link, ok, err)
	}
	again, err := Push(ctx, s.db, dst)
	if err != nil || again.Added != 0 || again.Events != 5 {
		t.Fatalf("second Push = %+v, %v; want nothing added", again, err)
	}
	if n, _ := dst.CountEvents(ctx, to); n != 5 {
		t.Fatalf("%d events after two pushes; want 5", n)
	}
}

// TestSyncOfflineRun: a run noted as offline is copied by Sync from the
// local ledger into the shared one and its note removed; a run still
// going is left for the next sync.
func TestSyncOfflineRun(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	s := newSrc(t, home)
	must(t, NoteOffline(home, s.done))
	must(t, NoteOffline(home, s.active))
	dst := openAt(t, t.TempDir())
	open := func() (ledger.Ledger, error) { return sqlite.Open(ctx, home) }
	items, err := Sync(ctx, dst, home, open)
	if err != nil || len(items) != 1 || items[0] != (Item{Kind: KindOffline, Run: s.done.ID, Events: 3, Added: 3}) {
		t.Fatalf("Sync = %+v, %v; want the finished run's 3 events", items, err)
	}
	notes, _ := filepath.Glob(filepath.Join(Dir(home), "offline-*"))
	if len(notes) != 1 || !strings.Contains(notes[0], s.active.ID) {
		t.Fatalf("notes left %v; want only the active run's", notes)
	}
	if j, o, err := Pending(home); j != 0 || o != 1 || err != nil {
		t.Fatalf("Pending = %d %d %v; want 0 journals, 1 offline run", j, o, err)
	}
	if r, err := dst.Run(ctx, s.done.ID); err != nil || r.State != ledger.RunFinished {
		t.Fatalf("synced run = %+v, %v", r, err)
	}
	must(t, NoteOffline(home, s.done)) // noted again (a crash before the removal)
	items, err = Sync(ctx, dst, home, open)
	if err != nil || len(items) != 1 || items[0].Added != 0 {
		t.Fatalf("Sync of an already copied run = %+v, %v; want 0 added", items, err)
	}
	if _, err := os.Stat(filepath.Join(Dir(home), "offline-"+s.done.ID+".json")); !os.IsNotExist(err) {
		t.Fatalf("note of the copied run still there (%v)", err)
	}
}
