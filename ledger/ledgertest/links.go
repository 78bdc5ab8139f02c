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
