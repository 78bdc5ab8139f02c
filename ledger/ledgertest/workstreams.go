package ledgertest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

func testSelectWorkstream(t *testing.T, be Backend) {
	ctx := context.Background()
	db, clk := openTest(t, be)
	step := func() { clk.Advance(time.Second) }

	def, err := db.SelectWorkstream(ctx, testScope, ledger.Selector{})
	if err != nil || def.Name != ledger.DefaultWorkstreamName || def.Cwd != testScope.Cwd {
		t.Fatalf("no selector on an empty scope = %+v, %v; want a new %q", def, err, ledger.DefaultWorkstreamName)
	}
	step()
	feat, err := db.SelectWorkstream(ctx, testScope, ledger.Selector{Name: " feat ", Create: true})
	if err != nil || feat.Name != "feat" {
		t.Fatalf("create feat = %+v, %v", feat, err)
	}
	step()
	if got, err := db.SelectWorkstream(ctx, testScope, ledger.Selector{}); err != nil || got.ID != feat.ID {
		t.Fatalf("no selector = %q, %v; want the most recently selected %q", got.Name, err, feat.Name)
	}
	step()
	moved := testScope
	moved.Cwd = "/src/a/sub"
	got, err := db.SelectWorkstream(ctx, moved, ledger.Selector{Name: "default"})
	if err != nil || got.ID != def.ID || got.Cwd != moved.Cwd || !got.SelectedAt.Equal(clk.Now()) || !got.UpdatedAt.Equal(clk.Now()) {
		t.Fatalf("select default = %+v, %v; want selected now with the new cwd", got, err)
	}
	if cur, ok, err := db.CurrentWorkstream(ctx, testScope); err != nil || !ok || cur.ID != def.ID {
		t.Fatalf("CurrentWorkstream = %q, %v, %v; want default", cur.Name, ok, err)
	}

	_, err = db.SelectWorkstream(ctx, testScope, ledger.Selector{Name: "feat", Create: true})
	if !errors.Is(err, ledger.ErrExists) || err.Error() != "workstream 'feat' already exists; select it with --workstream feat" {
		t.Fatalf("re-create = %v; want ErrExists with the exact hint", err)
	}
	if _, err = db.SelectWorkstream(ctx, testScope, ledger.Selector{Name: "nope"}); !errors.Is(err, ledger.ErrNotFound) {
		t.Fatalf("select missing = %v; want ErrNotFound", err)
	}
	if _, err = db.SelectWorkstream(ctx, testScope, ledger.Selector{Name: "a/b", Create: true}); err == nil {
		t.Fatal("a bad name was accepted")
	}
	other := ledger.Scope{RepoFingerprint: "repo-a", WorktreeFingerprint: "wt-2"}
	if _, ok, _ := db.CurrentWorkstream(ctx, other); ok {
		t.Fatal("another worktree sees this worktree's workstreams")
	}
	if ws, err := db.SelectWorkstream(ctx, other, ledger.Selector{Name: "feat", Create: true}); err != nil || ws.ID == feat.ID {
		t.Fatalf("same name in another worktree = %+v, %v; want a distinct workstream", ws, err)
	}
	if _, err := db.SelectWorkstream(ctx, ledger.Scope{}, ledger.Selector{}); err == nil {
		t.Fatal("an empty scope was accepted")
	}
}

// With a frozen clock, "most recently selected" must still follow the order
// of the calls.
func testSelectWorkstream_FrozenClockKeepsOrder(t *testing.T, be Backend) {
	ctx := context.Background()
	db, _ := openTest(t, be)
	a := mustWorkstream(t, db, "a")
	b := mustWorkstream(t, db, "b")
	for _, want := range []ledger.Workstream{a, b, a} {
		if _, err := db.SelectWorkstream(ctx, testScope, ledger.Selector{Name: want.Name}); err != nil {
			t.Fatal(err)
		}
		if cur, _, _ := db.CurrentWorkstream(ctx, testScope); cur.ID != want.ID {
			t.Fatalf("current = %q; want %q", cur.Name, want.Name)
		}
	}
}

func testListWorkstreamsAndEstablished(t *testing.T, be Backend) {
	ctx := context.Background()
	db, clk := openTest(t, be)
	a := mustWorkstream(t, db, "a")
	clk.Advance(time.Second)
	b := mustWorkstream(t, db, "b")
	if est, err := db.Established(ctx, a.ID); err != nil || est {
		t.Fatalf("Established(new) = %v, %v; want false", est, err)
	}
	cp := []ledger.EventInput{{Harness: "codex", Kind: ledger.KindCheckpoint, Content: "HEAD: abc"}}
	mustAppend(t, db, ledger.Batch{WorkstreamID: a.ID, Events: cp})
	if est, _ := db.Established(ctx, a.ID); est {
		t.Fatal("a checkpoint alone made the workstream established")
	}
	mustAppend(t, db, ledger.Batch{WorkstreamID: a.ID, Events: msgs("s", 0, 3, "hi")})
	if est, _ := db.Established(ctx, a.ID); !est {
		t.Fatal("messages did not make the workstream established")
	}
	if _, err := db.LinkSession(ctx, b.ID, "codex", "sess"); err != nil {
		t.Fatal(err)
	}
	if est, _ := db.Established(ctx, b.ID); !est {
		t.Fatal("a session link did not make the workstream established")
	}
	run, _, err := db.AcquireLease(ctx, a.ID, "claude", ledger.Owner{Host: "h", PID: 1})
	if err != nil {
		t.Fatal(err)
	}
	db.FinishRun(ctx, run.ID, nil)

	list, err := db.ListWorkstreams(ctx, testScope)
	if err != nil || len(list) != 2 {
		t.Fatalf("ListWorkstreams = %d rows, %v", len(list), err)
	}
	if list[0].ID != b.ID || !list[0].Selected || list[1].Selected {
		t.Fatalf("order/selection wrong: %+v", list)
	}
	if la := list[1]; la.Events != 4 || la.LastHarness != "claude" || strings.Join(la.Harnesses, ",") != "claude" {
		t.Fatalf("summary of a = events %d, last %q, harnesses %v", la.Events, la.LastHarness, la.Harnesses)
	}
	if lb := list[0]; lb.Events != 0 || lb.LastHarness != "" || strings.Join(lb.Harnesses, ",") != "codex" {
		t.Fatalf("summary of b = events %d, last %q, harnesses %v", lb.Events, lb.LastHarness, lb.Harnesses)
	}
}

func testUnknownWorkstream(t *testing.T, be Backend) {
	ctx := context.Background()
	db, _ := openTest(t, be)
	const id = "00000000-0000-7000-8000-000000000000"
	calls := map[string]func() error{
		"WorkstreamByID":  func() error { _, err := db.WorkstreamByID(ctx, id); return err },
		"AcquireLease":    func() error { _, _, err := db.AcquireLease(ctx, id, "claude", ledger.CurrentOwner()); return err },
		"LinkSession":     func() error { _, err := db.LinkSession(ctx, id, "claude", "s"); return err },
		"AdvanceDelivery": func() error { return db.AdvanceDelivery(ctx, id, "claude", "s", 3) },
		"Append": func() error {
			_, err := db.Append(ctx, ledger.Batch{WorkstreamID: id, Events: msgs("s", 0, 1, "x")})
			return err
		},
		"LatestSequence": func() error { _, err := db.LatestSequence(ctx, id); return err },
		"CountEvents":    func() error { _, err := db.CountEvents(ctx, id); return err },
		"EventsInRange":  func() error { _, err := db.EventsInRange(ctx, id, 0, 10, 5); return err },
		"LatestEvent":    func() error { _, _, err := db.LatestEvent(ctx, id, ledger.KindCheckpoint); return err },
		"Search":         func() error { _, err := db.Search(ctx, id, "x", 5); return err },
		"Run":            func() error { _, err := db.Run(ctx, id); return err },
		"SetRunSession":  func() error { return db.SetRunSession(ctx, id, "s") },
		"RenewLease":     func() error { _, err := db.RenewLease(ctx, id); return err },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, ledger.ErrNotFound) {
			t.Errorf("%s on an unknown id = %v; want ErrNotFound", name, err)
		}
	}
}

// testMoveScope: a checkout whose identity changed keeps its workstreams
// (ids, events, links), a name taken in the new scope gets a suffix, and
// repeating the move changes nothing.
func testMoveScope(t *testing.T, be Backend) {
	ctx := context.Background()
	db, clk := openTest(t, be)
	from := ledger.Scope{RepoFingerprint: "old-repo", WorktreeFingerprint: "old-wt", Cwd: "/old"}
	to := ledger.Scope{RepoFingerprint: "new-repo", WorktreeFingerprint: "new-wt", Cwd: "/new"}
	def, err := db.SelectWorkstream(ctx, from, ledger.Selector{})
	must(t, err)
	mustAppend(t, db, ledger.Batch{WorkstreamID: def.ID, Events: msgs("s1", 0, 3, "moved history")})
	_, err = db.LinkSession(ctx, def.ID, "claude", "s1")
	must(t, err)
	feat, err := db.SelectWorkstream(ctx, from, ledger.Selector{Name: "feat", Create: true})
	must(t, err)
	clk.Advance(time.Second)
	theirs, err := db.SelectWorkstream(ctx, to, ledger.Selector{}) // "default" exists in to already
	must(t, err)

	moved, err := db.MoveScope(ctx, from, to)
	if err != nil || moved != 2 {
		t.Fatalf("MoveScope = %d, %v; want 2", moved, err)
	}
	if list, _ := db.ListWorkstreams(ctx, from); len(list) != 0 {
		t.Fatalf("old scope still lists %d workstreams", len(list))
	}
	list, err := db.ListWorkstreams(ctx, to)
	must(t, err)
	names := map[string]string{}
	for _, w := range list {
		names[w.ID] = w.Name
		if w.ID != theirs.ID && w.Cwd != "/new" {
			t.Errorf("moved %s has cwd %q; want /new", w.Name, w.Cwd)
		}
	}
	wantDef := ledger.MovedName("default", def.ID)
	if len(list) != 3 || names[theirs.ID] != "default" || names[def.ID] != wantDef || names[feat.ID] != "feat" {
		t.Fatalf("new scope = %v; want default, %s, feat", names, wantDef)
	}
	if n, _ := db.CountEvents(ctx, def.ID); n != 3 {
		t.Fatalf("moved workstream has %d events; want 3", n)
	}
	if l, ok, _ := db.CurrentLink(ctx, def.ID, "claude"); !ok || l.NativeSessionID != "s1" {
		t.Fatal("moved workstream lost its link")
	}
	if cur, ok, _ := db.CurrentWorkstream(ctx, to); !ok || cur.ID != theirs.ID {
		t.Fatalf("current of the new scope = %+v; want the most recently selected one (kept)", cur)
	}
	for _, again := range [][2]ledger.Scope{{from, to}, {to, to}} {
		if n, err := db.MoveScope(ctx, again[0], again[1]); err != nil || n != 0 {
			t.Fatalf("MoveScope(%v -> %v) again = %d, %v; want 0", again[0], again[1], n, err)
		}
	}
	if _, err := db.MoveScope(ctx, ledger.Scope{}, to); err == nil {
		t.Fatal("an empty scope was accepted")
	}
}
