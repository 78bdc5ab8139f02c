package ledgertest

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// testImportRun: a run that ended in another ledger is stored as it is,
// once (a second import changes nothing), survives Rebuild, counts in
// SpanOf with the events appended under its id, and never takes a lease:
// active runs and unknown workstreams are refused.
func testImportRun(t *testing.T, be Backend) {
	ctx := context.Background()
	db, clk := openTest(t, be)
	ws := mustWorkstream(t, db, "w")
	code, ended := 7, time.Date(2026, 2, 1, 10, 5, 0, 0, time.UTC)
	r := ledger.Run{ID: "0190a5b2-0000-7000-8000-000000000001", WorkstreamID: ws.ID, Harness: "codex", NativeSessionID: "n-1",
		State: ledger.RunFinished, ExitCode: &code, StartedAt: time.Date(2026, 2, 1, 10, 0, 0, 0, time.UTC), EndedAt: &ended,
		LeaseExpiresAt: ended, Owner: ledger.Owner{Machine: "m-laptop", Host: "laptop", PID: 42, StartTime: "s"}, SyncAfter: 1, SyncThrough: 2, ContextDelivered: true}
	must(t, db.ImportRun(ctx, r))
	again := r
	again.Harness, again.State = "claude", ledger.RunInterrupted
	must(t, db.ImportRun(ctx, again))
	got, err := db.Run(ctx, r.ID)
	if err != nil || !reflect.DeepEqual(got, r) {
		t.Fatalf("imported run = %+v, %v; want %+v", got, err, r)
	}
	mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, RunID: r.ID, Events: msgs("n-1", 0, 3, "copied")})
	if span, err := db.SpanOf(ctx, got); err != nil || span.Events() != 3 {
		t.Fatalf("SpanOf imported run = %+v, %v; want 3 events", span, err)
	}
	// It holds no lease: a launcher takes the workstream at once.
	clk.Advance(time.Second)
	if _, reclaimed, err := db.AcquireLease(ctx, ws.ID, "claude", ledger.Owner{Host: "h", PID: 1}); err != nil || len(reclaimed) != 0 {
		t.Fatalf("acquire after import = %v, %v", reclaimed, err)
	}
	active := r
	active.ID, active.State, active.EndedAt = "0190a5b2-0000-7000-8000-000000000002", ledger.RunActive, nil
	if err := db.ImportRun(ctx, active); err == nil {
		t.Fatal("an active run was imported")
	}
	lost := r
	lost.ID, lost.WorkstreamID = "0190a5b2-0000-7000-8000-000000000003", "00000000-0000-0000-0000-000000000000"
	if err := db.ImportRun(ctx, lost); !errors.Is(err, ledger.ErrNotFound) {
		t.Fatalf("import into an unknown workstream = %v; want ErrNotFound", err)
	}
	if _, err := db.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	if got, err := db.Run(ctx, r.ID); err != nil || got.State != ledger.RunFinished || got.Owner.Host != "laptop" || got.Owner.Machine != "m-laptop" {
		t.Fatalf("imported run after rebuild = %+v, %v", got, err)
	}
}
