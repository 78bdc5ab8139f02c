package ledgertest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// testOrder_LateEventIsShownBeforeTheEventsItPrecedes: one batch or one
// event per batch, the same ids, sequences and conversation order.
func testOrder_LateEventIsShownBeforeTheEventsItPrecedes(t *testing.T, be Backend) {
	ctx := context.Background()
	var ids []string
	for _, per := range []int{4, 1, 2} {
		t.Run(fmt.Sprintf("batches of %d", per), func(t *testing.T) {
			db, _ := openTest(t, be)
			ws := mustWorkstream(t, db, "main")
			in := convo()
			for i := 0; i < len(in); i += per {
				mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: in[i:min(i+per, len(in))]})
			}
			evs, err := db.EventsInRange(ctx, ws.ID, 0, 100, 0)
			must(t, err)
			if got := contents(evs); got != convoOrder {
				t.Fatalf("order = %q; want %q", got, convoOrder)
			}
			var got []string
			for _, e := range evs {
				got = append(got, fmt.Sprintf("%d:%s", e.Sequence, e.EventID))
			}
			if ids == nil {
				ids = got
			} else if strings.Join(got, ",") != strings.Join(ids, ",") {
				t.Fatalf("sequences and ids %v; want %v as in one batch", got, ids)
			}
			if r := mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: convo()}); r.Added != 0 {
				t.Fatalf("replay added %d", r.Added)
			}
		})
	}
}

// testOrder_UnseenStaysArrivalOrder: a harness that saw the events up to the
// tool call is handed the late prompt, exactly once, even though it sorts
// before what it saw.
func testOrder_UnseenStaysArrivalOrder(t *testing.T, be Backend) {
	ctx := context.Background()
	db, _ := openTest(t, be)
	ws := mustWorkstream(t, db, "main")
	in := convo()
	mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: in[:1]})
	other := ledger.EventInput{Harness: "codex", NativeSessionID: "o", SourceRecordID: "o1", Kind: ledger.KindMessage, Role: "user",
		OccurredAt: time.Date(2026, 3, 1, 11, 0, 9, 0, time.UTC), Content: "other harness"}
	mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: []ledger.EventInput{other}})
	seen, err := db.LatestSequence(ctx, ws.ID)
	must(t, err)
	mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: in[1:]})
	unseen, err := db.EventsInRange(ctx, ws.ID, seen, 100, 0)
	must(t, err)
	if got := contents(unseen); got != "hello run tool | hello | done" {
		t.Fatalf("unseen after %d = %q", seen, got)
	}
	all, err := db.EventsInRange(ctx, ws.ID, 0, 100, 0)
	must(t, err)
	if got, want := contents(all), "hello run tool | Bash: echo hello | other harness | hello | done"; got != want {
		t.Fatalf("order = %q; want %q", got, want)
	}
	newest, err := db.Search(ctx, ws.ID, "", 100)
	must(t, err)
	if got, want := contents(newest), "done | hello | other harness | Bash: echo hello | hello run tool"; got != want {
		t.Fatalf("newest first = %q; want %q", got, want)
	}
}

// testOrder_RebuildKeepsOrder: the order key is in the segments.
func testOrder_RebuildKeepsOrder(t *testing.T, be Backend) {
	ctx := context.Background()
	db, _ := openTest(t, be)
	ws := mustWorkstream(t, db, "main")
	for _, e := range convo() {
		mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: []ledger.EventInput{e}})
	}
	if _, err := db.Rebuild(ctx); err != nil {
		t.Fatalf("Rebuild: %v", err)
	}
	evs, err := db.EventsInRange(ctx, ws.ID, 0, 100, 0)
	must(t, err)
	if got := contents(evs); got != convoOrder {
		t.Fatalf("order after rebuild = %q; want %q", got, convoOrder)
	}
	late := convo()[1]
	late.SourceRecordID, late.Content, late.OccurredAt = "prompt-0", "earliest", late.OccurredAt.Add(-time.Second)
	mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: []ledger.EventInput{late}})
	evs, err = db.EventsInRange(ctx, ws.ID, 0, 100, 0)
	must(t, err)
	if got := contents(evs); got != "earliest | "+convoOrder {
		t.Fatalf("late event after rebuild (newest time recomputed) = %q", got)
	}
}

// convo is a session written out of order, as Claude Code 2.1.197 does: the
// tool call (11:00:02) reaches the store before the prompt (11:00:01) that
// caused it. ByTime events; "o" events are another harness's, in between.
func convo() []ledger.EventInput {
	at := func(s int) time.Time { return time.Date(2026, 3, 1, 11, 0, s, 0, time.UTC) }
	ev := func(rec string, s int, kind ledger.Kind, role, text string) ledger.EventInput {
		return ledger.EventInput{Harness: "claude", NativeSessionID: "s1", SourceRecordID: rec, Kind: kind, Role: role,
			OccurredAt: at(s), Content: text, ByTime: true}
	}
	return []ledger.EventInput{
		ev("call", 2, ledger.KindToolCall, "assistant", "Bash: echo hello"),
		ev("prompt", 1, ledger.KindMessage, "user", "hello run tool"),
		ev("result", 3, ledger.KindToolResult, "tool", "hello"),
		ev("answer", 4, ledger.KindMessage, "assistant", "done"),
	}
}

func contents(evs []ledger.Event) string {
	var b []string
	for _, e := range evs {
		b = append(b, e.Content)
	}
	return strings.Join(b, " | ")
}

const convoOrder = "hello run tool | Bash: echo hello | hello | done"
