package ledgertest

import (
	"context"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

func testLinks_DemotionAndCursors(t *testing.T, be Backend) {
	ctx := context.Background()
	db, clk := openTest(t, be)
	ws := mustWorkstream(t, db, "w")
	l1, err := db.LinkSession(ctx, ws.ID, "claude", "s1")
	if err != nil || !l1.Current {
		t.Fatalf("link s1 = %+v, %v", l1, err)
	}
	must(t, db.AdvanceDelivery(ctx, ws.ID, "claude", "s1", 7))
	must(t, db.AdvanceDelivery(ctx, ws.ID, "claude", "s1", 4)) // never lowers
	mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: msgs("s1", 0, 1, "x"),
		Cursor: &ledger.CursorUpdate{Harness: "claude", NativeSessionID: "s1", SourceCursor: `{"offset":10}`}})
	clk.Advance(time.Second)
	if _, err := db.LinkSession(ctx, ws.ID, "claude", "s2"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.LinkSession(ctx, ws.ID, "codex", "c1"); err != nil {
		t.Fatal(err)
	}
	cur, ok, err := db.CurrentLink(ctx, ws.ID, "claude")
	if err != nil || !ok || cur.NativeSessionID != "s2" {
		t.Fatalf("current claude link = %+v, %v, %v; want s2", cur, ok, err)
	}
	old, ok, _ := db.SessionLink(ctx, ws.ID, "claude", "s1")
	if !ok || old.Current || old.DeliveryCursor != 7 || old.SourceCursor != `{"offset":10}` {
		t.Fatalf("demoted s1 = %+v; want not current with its cursors", old)
	}
	clk.Advance(time.Second)
	back, err := db.LinkSession(ctx, ws.ID, "claude", "s1") // relink a known id
	if err != nil || !back.Current || back.DeliveryCursor != 7 || back.SourceCursor != `{"offset":10}` || !back.CreatedAt.Equal(l1.CreatedAt) {
		t.Fatalf("relinked s1 = %+v, %v; want current with cursors kept", back, err)
	}
	must(t, db.AdvanceDelivery(ctx, ws.ID, "codex", "c-unknown", 2))
	links, err := db.Links(ctx, ws.ID)
	if err != nil || len(links) != 4 {
		t.Fatalf("Links = %d, %v", len(links), err)
	}
	var order []string
	for _, l := range links {
		order = append(order, l.NativeSessionID)
	}
	if !links[0].Current || !links[1].Current || links[2].Current || links[3].Current || order[0] != "s1" {
		t.Fatalf("links order %v (current first, newest first)", order)
	}
	if l, ok, _ := db.SessionLink(ctx, ws.ID, "codex", "c-unknown"); !ok || l.Current || l.DeliveryCursor != 2 {
		t.Fatalf("AdvanceDelivery on a new id = %+v; want a non-current row", l)
	}
	if _, ok, _ := db.CurrentLink(ctx, ws.ID, "gemini"); ok {
		t.Fatal("a harness with no link has a current link")
	}
}

// testLinks_PerMachine: two machines sharing one ledger each keep their
// own current session per harness, with their own cursors, so alternating
// machines resumes each machine's session (no ping-pong of fresh ones).
func testLinks_PerMachine(t *testing.T, be Backend) {
	ctx := context.Background()
	home := t.TempDir()
	clk := &testClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	a, b := openAs(t, be, home, machineA, clk), openAs(t, be, home, machineB, clk)
	if a.Machine() != machineA || b.Machine() != machineB {
		t.Fatalf("Machine() = %q, %q; want %q, %q", a.Machine(), b.Machine(), machineA, machineB)
	}
	ws := mustWorkstream(t, a, "w")
	la, err := a.LinkSession(ctx, ws.ID, "claude", "sa")
	if err != nil || la.Machine != machineA || !la.Current {
		t.Fatalf("A links sa = %+v, %v", la, err)
	}
	must(t, a.AdvanceDelivery(ctx, ws.ID, "claude", "sa", 5))
	if l, ok, err := b.CurrentLink(ctx, ws.ID, "claude"); err != nil || ok {
		t.Fatalf("B's current claude link = %+v, %v, %v; want none (A's session is not resumable on B)", l, ok, err)
	}
	if _, ok, _ := b.SessionLink(ctx, ws.ID, "claude", "sa"); ok {
		t.Fatal("B sees A's session link as its own")
	}
	clk.Advance(time.Second)
	if _, err := b.LinkSession(ctx, ws.ID, "claude", "sb"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		db   *fixture
		want string
	}{{a, "sa"}, {b, "sb"}} {
		cur, ok, err := c.db.CurrentLink(ctx, ws.ID, "claude")
		if err != nil || !ok || cur.NativeSessionID != c.want || cur.Machine != c.db.Machine() {
			t.Fatalf("%s's current claude link = %+v, %v, %v; want %s", c.db.Machine(), cur, ok, err, c.want)
		}
	}
	// Relinking on A keeps B's current session; the same native id on
	// both machines is two links with their own cursors.
	clk.Advance(time.Second)
	if _, err := a.LinkSession(ctx, ws.ID, "claude", "sa"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.LinkSession(ctx, ws.ID, "claude", "sa"); err != nil {
		t.Fatal(err)
	}
	must(t, b.AdvanceDelivery(ctx, ws.ID, "claude", "sa", 2))
	mustAppend(t, b, ledger.Batch{WorkstreamID: ws.ID, Events: msgs("sa", 0, 1, "from b"),
		Cursor: &ledger.CursorUpdate{Harness: "claude", NativeSessionID: "sa", SourceCursor: `{"b":1}`}})
	onA, _, _ := a.SessionLink(ctx, ws.ID, "claude", "sa")
	onB, _, _ := b.SessionLink(ctx, ws.ID, "claude", "sa")
	if onA.DeliveryCursor != 5 || onA.SourceCursor != "" || !onA.Current || onB.DeliveryCursor != 2 || onB.SourceCursor != `{"b":1}` || !onB.Current {
		t.Fatalf("same id on two machines: A %+v, B %+v; want separate cursors, both current", onA, onB)
	}
	if l, _, _ := b.SessionLink(ctx, ws.ID, "claude", "sb"); l.Current {
		t.Fatal("B relinking sa left sb current")
	}
	links, err := a.Links(ctx, ws.ID)
	if err != nil || len(links) != 3 {
		t.Fatalf("Links = %+v, %v; want every machine's three", links, err)
	}
	machines := map[string]int{}
	for _, l := range links {
		machines[l.Machine]++
	}
	if machines[machineA] != 1 || machines[machineB] != 2 {
		t.Fatalf("Links by machine = %v; want A 1, B 2", machines)
	}
}
