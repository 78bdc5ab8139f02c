package ledgertest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// writers is how many goroutines race in the concurrency tests: enough to
// interleave on two cores, few enough to stay far from any busy timeout.
const writers = 6

// race runs fn(i) for i in [0, writers) at once and returns their errors.
func race(fn func(i int) error) []error {
	errs := make([]error, writers)
	var start, done sync.WaitGroup
	start.Add(1)
	for i := range writers {
		done.Add(1)
		go func() {
			defer done.Done()
			start.Wait()
			errs[i] = fn(i)
		}()
	}
	start.Done()
	done.Wait()
	return errs
}

// testLease_ExactlyOneWriter: launchers racing for one workstream's lease
// get exactly one run; every other one is told who holds it.
func testLease_ExactlyOneWriter(t *testing.T, be Backend) {
	ctx := context.Background()
	db, _ := openTest(t, be)
	db.ProcessAlive = func(ledger.Owner) bool { return true }
	ws := mustWorkstream(t, db, "w")
	runs := make([]ledger.Run, writers)
	errs := race(func(i int) (err error) {
		runs[i], _, err = db.AcquireLease(ctx, ws.ID, "claude", ledger.Owner{Host: "h1", PID: 100 + i})
		return err
	})
	var won []ledger.Run
	for i, err := range errs {
		var busy *ledger.BusyError
		switch {
		case err == nil:
			won = append(won, runs[i])
		case !errors.As(err, &busy):
			t.Fatalf("writer %d: %v; want a lease or *BusyError", i, err)
		}
	}
	if len(won) != 1 {
		t.Fatalf("%d writers got the lease; want exactly 1", len(won))
	}
	for i, err := range errs {
		var busy *ledger.BusyError
		if errors.As(err, &busy) && busy.Holder.ID != won[0].ID {
			t.Errorf("writer %d told %s holds it; the holder is %s", i, busy.Holder.ID, won[0].ID)
		}
	}
}

// testAppend_ConcurrentWritersGetDistinctSequences: batches appended at
// once to one workstream get the sequences 1..N with no gap or repeat,
// and each batch's events stay contiguous and in order.
func testAppend_ConcurrentWritersGetDistinctSequences(t *testing.T, be Backend) {
	ctx := context.Background()
	db, _ := openTest(t, be)
	ws := mustWorkstream(t, db, "w")
	const per = 5
	errs := race(func(i int) error {
		_, err := db.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, Events: msgs(fmt.Sprintf("s%d", i), 0, per, "concurrent")})
		return err
	})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: %v", i, err)
		}
	}
	evs, err := db.EventsInRange(ctx, ws.ID, 0, writers*per, 0)
	if err != nil || len(evs) != writers*per {
		t.Fatalf("EventsInRange = %d events, %v; want %d", len(evs), err, writers*per)
	}
	for i, e := range evs {
		if e.Sequence != int64(i+1) {
			t.Fatalf("event %d has sequence %d; want %d", i, e.Sequence, i+1)
		}
		first := evs[i-i%per]
		if e.NativeSessionID != first.NativeSessionID || e.SourceRecordID != fmt.Sprintf("rec-%d", i%per) {
			t.Fatalf("event %d (%s %s) breaks its batch", i, e.NativeSessionID, e.SourceRecordID)
		}
	}
	if n, _ := db.LatestSequence(ctx, ws.ID); n != writers*per {
		t.Fatalf("LatestSequence = %d; want %d", n, writers*per)
	}
}

// testAppend_ConcurrentReplaysStoreOnce: the same batch appended by
// several writers at once (a live import and a backfill reading the same
// transcript) is stored once; the others skip every event.
func testAppend_ConcurrentReplaysStoreOnce(t *testing.T, be Backend) {
	ctx := context.Background()
	db, _ := openTest(t, be)
	ws := mustWorkstream(t, db, "w")
	const per = 4
	results := make([]ledger.AppendResult, writers)
	errs := race(func(i int) (err error) {
		results[i], err = db.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, Events: msgs("s", 0, per, "same")})
		return err
	})
	added, skipped := 0, 0
	for i, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: %v", i, err)
		}
		added, skipped = added+results[i].Added, skipped+results[i].Skipped
	}
	if added != per || skipped != (writers-1)*per {
		t.Fatalf("added %d, skipped %d; want %d and %d", added, skipped, per, (writers-1)*per)
	}
	if n, _ := db.CountEvents(ctx, ws.ID); n != per {
		t.Fatalf("CountEvents = %d; want %d", n, per)
	}
}

// testAppend_CursorOnlyWithItsEvents: a batch's cursor is stored in the
// same transaction as its events: a batch that fails leaves the cursor
// where it was, a replayed batch still stores its cursor.
func testAppend_CursorOnlyWithItsEvents(t *testing.T, be Backend) {
	ctx := context.Background()
	db, _ := openTest(t, be)
	ws := mustWorkstream(t, db, "w")
	if _, err := db.LinkSession(ctx, ws.ID, "claude", "s1"); err != nil {
		t.Fatal(err)
	}
	cursor := func(c string) *ledger.CursorUpdate {
		return &ledger.CursorUpdate{Harness: "claude", NativeSessionID: "s1", SourceCursor: c}
	}
	mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: msgs("s1", 0, 2, "x"), Cursor: cursor(`{"offset":2}`)})
	bad := append(msgs("s1", 2, 1, "x"), ledger.EventInput{Harness: "claude", Kind: "bogus", Content: "x"})
	if _, err := db.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, Events: bad, Cursor: cursor(`{"offset":9}`)}); err == nil {
		t.Fatal("a batch with an unknown kind was accepted")
	}
	if l, _, _ := db.SessionLink(ctx, ws.ID, "claude", "s1"); l.SourceCursor != `{"offset":2}` {
		t.Fatalf("cursor after a failed batch = %s; want the last good one", l.SourceCursor)
	}
	if n, _ := db.CountEvents(ctx, ws.ID); n != 2 {
		t.Fatalf("a failed batch stored events: %d; want 2", n)
	}
	mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: msgs("s1", 0, 2, "x"), Cursor: cursor(`{"offset":3}`)})
	if l, _, _ := db.SessionLink(ctx, ws.ID, "claude", "s1"); l.SourceCursor != `{"offset":3}` {
		t.Fatalf("cursor after a replay = %s; want it stored", l.SourceCursor)
	}
}

// testRebuild_KeepsEveryAnswer: Rebuild replays the durable copy (the
// segments and state snapshots of the data home) into the ledger; on a
// healthy ledger every answer stays the same and a replay adds nothing.
func testRebuild_KeepsEveryAnswer(t *testing.T, be Backend) {
	ctx := context.Background()
	home := t.TempDir()
	clk := &testClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	db := openAs(t, be, home, machineA, clk)
	db.ProcessAlive = func(ledger.Owner) bool { return true }
	ws := mustWorkstream(t, db, "w")
	run, _, err := db.AcquireLease(ctx, ws.ID, "claude", ledger.Owner{Host: "h1", PID: 10})
	must(t, err)
	if _, err := db.LinkSession(ctx, ws.ID, "claude", "s1"); err != nil {
		t.Fatal(err)
	}
	// Another machine's link of the same harness, with its own cursor.
	other := openAs(t, be, home, machineB, clk)
	if _, err := other.LinkSession(ctx, ws.ID, "claude", "s-b"); err != nil {
		t.Fatal(err)
	}
	must(t, other.AdvanceDelivery(ctx, ws.ID, "claude", "s-b", 3))
	batch := ledger.Batch{WorkstreamID: ws.ID, RunID: run.ID, Events: msgs("s1", 0, 6, "rebuild me"),
		Cursor: &ledger.CursorUpdate{Harness: "claude", NativeSessionID: "s1", SourceCursor: `{"offset":6}`}}
	mustAppend(t, db, batch)
	clk.Advance(time.Second)
	must(t, db.FinishRun(ctx, run.ID, new(int)))
	type answers struct {
		Events []ledger.Event
		Links  []ledger.Link
		Runs   []ledger.Run
		Found  []ledger.Event
	}
	read := func() answers {
		var a answers
		var err error
		a.Events, err = db.EventsInRange(ctx, ws.ID, 0, 100, 0)
		must(t, err)
		a.Links, err = db.Links(ctx, ws.ID)
		must(t, err)
		a.Runs, err = db.Runs(ctx, ws.ID, 0)
		must(t, err)
		a.Found, err = db.Search(ctx, ws.ID, "rebuild", 0)
		must(t, err)
		return a
	}
	before := read()
	res, err := db.Rebuild(ctx)
	if err != nil || res.Events != 6 {
		t.Fatalf("Rebuild = %+v, %v; want 6 events", res, err)
	}
	if after := read(); !reflect.DeepEqual(before, after) {
		t.Fatalf("answers changed by Rebuild:\n got %+v\nwant %+v", after, before)
	}
	if r := mustAppend(t, db, batch); r.Added != 0 || r.Skipped != 6 {
		t.Fatalf("replay after Rebuild = %+v; want nothing added", r)
	}
}
