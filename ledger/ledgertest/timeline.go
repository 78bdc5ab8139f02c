package ledgertest

import (
	"context"
	"testing"

	"github.com/ai-memory/ai-memory/ledger"
)

// Runs of two workstreams interleave, so segment ids interleave too: each
// run's span must still be exactly the events it appended.
func testSpanOfInterleavedWorkstreams(t *testing.T, be Backend) {
	ctx := context.Background()
	db, _ := openTest(t, be)
	a := mustWorkstream(t, db, "a")
	b := mustWorkstream(t, db, "b")
	type step struct {
		ws     ledger.Workstream
		events int // per batch; 0 = a run that appends nothing
		first  int64
	}
	steps := []step{{a, 3, 1}, {b, 2, 1}, {a, 0, 0}, {a, 5, 4}, {b, 4, 3}, {a, 1, 9}}
	var runs []ledger.Run
	rec := 0
	for _, s := range steps {
		r, _, err := db.AcquireLease(ctx, s.ws.ID, "claude", ledger.CurrentOwner())
		if err != nil {
			t.Fatal(err)
		}
		// Two batches (two segments) per run when it appends.
		for half := 0; half < 2 && s.events > 0; half++ {
			n := (s.events + half) / 2
			if n == 0 {
				continue
			}
			mustAppend(t, db, ledger.Batch{WorkstreamID: s.ws.ID, RunID: r.ID, Events: msgs("s", rec, n, "x")})
			rec += n
		}
		code := 0
		if err := db.FinishRun(ctx, r.ID, &code); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	for i, s := range steps {
		r, err := db.Run(ctx, runs[i].ID)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := db.SpanOf(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		want := ledger.RunSpan{FirstSequence: s.first}
		if s.events > 0 {
			want.LastSequence = s.first + int64(s.events) - 1
		}
		if sp.FirstSequence != want.FirstSequence || sp.LastSequence != want.LastSequence || sp.Events() != int64(s.events) {
			t.Errorf("step %d: span %d..%d (%d events), want %d..%d (%d)", i, sp.FirstSequence, sp.LastSequence, sp.Events(),
				want.FirstSequence, want.LastSequence, s.events)
		}
	}
	ordered, err := db.RunsOldestFirst(ctx, a.ID)
	if err != nil || len(ordered) != 4 || ordered[0].ID != runs[0].ID || ordered[3].ID != runs[5].ID {
		t.Fatalf("RunsOldestFirst: %d runs, err %v", len(ordered), err)
	}
}

func testEventsAfterAndFirstEvent(t *testing.T, be Backend) {
	ctx := context.Background()
	db, _ := openTest(t, be)
	ws := mustWorkstream(t, db, "a")
	evs := msgs("s", 0, 10, "m")
	evs[6].Role = "assistant"
	mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, RunID: "r", Events: evs})
	page, err := db.EventsAfter(ctx, ws.ID, 3, 10, 4)
	if err != nil || len(page) != 4 || page[0].Sequence != 4 || page[3].Sequence != 7 {
		t.Fatalf("EventsAfter: %+v, %v", page, err)
	}
	e, ok, err := db.FirstEvent(ctx, ws.ID, 6, 10, ledger.KindMessage, "assistant")
	if err != nil || !ok || e.Sequence != 7 {
		t.Fatalf("FirstEvent: %d %v %v", e.Sequence, ok, err)
	}
	if _, ok, _ := db.FirstEvent(ctx, ws.ID, 8, 10, ledger.KindMessage, "assistant"); ok {
		t.Error("FirstEvent found an event outside the range")
	}
}

func testAllWorkstreamsMarksEachCheckout(t *testing.T, be Backend) {
	ctx := context.Background()
	db, clk := openTest(t, be)
	mustWorkstream(t, db, "a1")
	clk.Advance(1e9)
	mustWorkstream(t, db, "a2")
	other := ledger.Scope{RepoFingerprint: "repo-b", WorktreeFingerprint: "wt-b", Cwd: "/src/b"}
	if _, err := db.SelectWorkstream(ctx, other, ledger.Selector{Name: "b1", Create: true}); err != nil {
		t.Fatal(err)
	}
	list, err := db.AllWorkstreams(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sel := map[string]bool{}
	for _, w := range list {
		sel[w.Name] = w.Selected
	}
	if len(list) != 3 || sel["a1"] || !sel["a2"] || !sel["b1"] {
		t.Fatalf("selected: %v", sel)
	}
}
