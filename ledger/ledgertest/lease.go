package ledgertest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

func testLease_BusyThenExpiresAfter90s(t *testing.T, be Backend) {
	ctx := context.Background()
	db, clk := openTest(t, be)
	db.ProcessAlive = func(ledger.Owner) bool { return true }
	ws := mustWorkstream(t, db, "w")
	first, reclaimed, err := db.AcquireLease(ctx, ws.ID, "claude", ledger.Owner{Host: "h1", PID: 10})
	if err != nil || len(reclaimed) != 0 || first.State != ledger.RunActive || !first.LeaseExpiresAt.Equal(clk.Now().Add(ledger.LeaseDuration)) {
		t.Fatalf("first acquire = %+v, %v, %v", first, reclaimed, err)
	}
	clk.Advance(ledger.LeaseDuration - time.Microsecond)
	_, _, err = db.AcquireLease(ctx, ws.ID, "codex", ledger.Owner{Host: "h1", PID: 11})
	var busy *ledger.BusyError
	if !errors.As(err, &busy) || busy.Holder.ID != first.ID {
		t.Fatalf("acquire while held = %v; want *BusyError naming the holder", err)
	}
	wantMsg := "workstream is busy: a claude run on h1:10 holds it since 2026-03-01T12:00:00Z until 2026-03-01T12:01:30Z"
	if err.Error() != wantMsg {
		t.Fatalf("busy message = %q; want %q", err, wantMsg)
	}
	clk.Advance(time.Microsecond)
	second, reclaimed, err := db.AcquireLease(ctx, ws.ID, "codex", ledger.Owner{Host: "h1", PID: 11})
	if err != nil || len(reclaimed) != 1 || reclaimed[0].ID != first.ID || reclaimed[0].State != ledger.RunExpired {
		t.Fatalf("acquire after 90 s = %+v, %+v, %v; want the first run expired", second, reclaimed, err)
	}
	if r, _ := db.Run(ctx, first.ID); r.State != ledger.RunExpired || r.EndedAt == nil {
		t.Fatalf("stored first run = %+v; want expired with ended_at", r)
	}
	if _, err := db.RenewLease(ctx, first.ID); !errors.Is(err, ledger.ErrLeaseLost) {
		t.Fatalf("renewing an expired run = %v; want ErrLeaseLost", err)
	}
}

func testLease_DeadOwnerTakeover(t *testing.T, be Backend) {
	tests := []struct {
		name       string
		holderHost string
		alive      bool
		wantState  ledger.RunState // "" = busy
	}{
		{"dead process on this host", "h1", false, ledger.RunInterrupted},
		{"live process on this host", "h1", true, ""},
		{"other host is never probed", "h2", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db, _ := openTest(t, be)
			var probed []ledger.Owner
			db.ProcessAlive = func(o ledger.Owner) bool { probed = append(probed, o); return tt.alive }
			ws := mustWorkstream(t, db, "w")
			holder, _, err := db.AcquireLease(ctx, ws.ID, "claude", ledger.Owner{Host: tt.holderHost, PID: 42, StartTime: "777"})
			if err != nil {
				t.Fatal(err)
			}
			_, reclaimed, err := db.AcquireLease(ctx, ws.ID, "claude", ledger.Owner{Host: "h1", PID: 43})
			if tt.wantState == "" {
				var busy *ledger.BusyError
				if !errors.As(err, &busy) {
					t.Fatalf("acquire = %v; want busy", err)
				}
				return
			}
			if err != nil || len(reclaimed) != 1 || reclaimed[0].State != tt.wantState || reclaimed[0].ID != holder.ID {
				t.Fatalf("acquire = %+v, %v; want holder %s", reclaimed, err, tt.wantState)
			}
			if len(probed) != 1 || probed[0] != (ledger.Owner{Machine: db.Machine(), Host: "h1", PID: 42, StartTime: "777"}) {
				t.Fatalf("probed %+v; want the holder's owner", probed)
			}
		})
	}
}

func testLease_TouchesOnlyItsWorkstream(t *testing.T, be Backend) {
	ctx := context.Background()
	db, clk := openTest(t, be)
	db.ProcessAlive = func(ledger.Owner) bool { return false }
	a, b := mustWorkstream(t, db, "a"), mustWorkstream(t, db, "b")
	ra, _, err := db.AcquireLease(ctx, a.ID, "claude", ledger.Owner{Host: "h", PID: 1})
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(2 * ledger.LeaseDuration)
	if _, _, err := db.AcquireLease(ctx, b.ID, "claude", ledger.Owner{Host: "h", PID: 2}); err != nil {
		t.Fatal(err)
	}
	if r, _ := db.Run(ctx, ra.ID); r.State != ledger.RunActive {
		t.Fatalf("a's lapsed run became %s when b was acquired; want it untouched", r.State)
	}
	// A lapsed lease that nobody expired can still be renewed.
	until, err := db.RenewLease(ctx, ra.ID)
	if err != nil || !until.Equal(clk.Now().Add(ledger.LeaseDuration)) {
		t.Fatalf("renew lapsed = %v, %v", until, err)
	}
}

func testRunLifecycle(t *testing.T, be Backend) {
	ctx := context.Background()
	db, clk := openTest(t, be)
	db.ProcessAlive = func(ledger.Owner) bool { return true }
	ws := mustWorkstream(t, db, "w")
	o := ledger.Owner{Host: "h", PID: 5, StartTime: "99"}
	run, _, err := db.AcquireLease(ctx, ws.ID, "codex", o)
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(30 * time.Second)
	if until, err := db.RenewLease(ctx, run.ID); err != nil || !until.Equal(clk.Now().Add(ledger.LeaseDuration)) {
		t.Fatalf("renew = %v, %v", until, err)
	}
	must(t, db.SetRunSession(ctx, run.ID, "native-1"))
	must(t, db.SetRunSync(ctx, run.ID, 3, 9))
	must(t, db.MarkContextDelivered(ctx, run.ID))
	if live, err := db.LiveRunForSession(ctx, "codex", "native-1"); err != nil || !live {
		t.Fatalf("LiveRunForSession = %v, %v; want true", live, err)
	}
	code := 3
	must(t, db.FinishRun(ctx, run.ID, &code))
	must(t, db.FinishRun(ctx, run.ID, &code)) // idempotent
	got, err := db.Run(ctx, run.ID)
	if err != nil || got.State != ledger.RunFinished || got.ExitCode == nil || *got.ExitCode != 3 || got.EndedAt == nil ||
		got.NativeSessionID != "native-1" || got.SyncAfter != 3 || got.SyncThrough != 9 || !got.ContextDelivered || got.Owner != withMachine(o, db.Machine()) {
		t.Fatalf("finished run = %+v, %v", got, err)
	}
	if live, _ := db.LiveRunForSession(ctx, "codex", "native-1"); live {
		t.Fatal("a finished run still counts as live")
	}
	if _, err := db.RenewLease(ctx, run.ID); !errors.Is(err, ledger.ErrLeaseLost) {
		t.Fatalf("renew finished = %v; want ErrLeaseLost", err)
	}
	// The lease is released: a new acquire succeeds at once.
	next, reclaimed, err := db.AcquireLease(ctx, ws.ID, "claude", o)
	if err != nil || len(reclaimed) != 0 {
		t.Fatalf("acquire after finish = %v, %v", reclaimed, err)
	}
	must(t, db.CancelRun(ctx, next.ID))
	must(t, db.CancelRun(ctx, next.ID))
	if r, _ := db.Run(ctx, next.ID); r.State != ledger.RunInterrupted || r.LeaseExpiresAt.After(clk.Now()) {
		t.Fatalf("cancelled run = %+v; want interrupted with its lease released", r)
	}
	if err := db.FinishRun(ctx, next.ID, nil); !errors.Is(err, ledger.ErrLeaseLost) {
		t.Fatalf("finish after cancel = %v; want ErrLeaseLost", err)
	}
	if _, _, err := db.AcquireLease(ctx, ws.ID, "claude", o); err != nil {
		t.Fatalf("acquire after cancel = %v", err)
	}
	runs, err := db.Runs(ctx, ws.ID, 2)
	if err != nil || len(runs) != 2 || runs[1].ID != next.ID {
		t.Fatalf("Runs = %d, %v; want the newest two, newest first", len(runs), err)
	}
}

func testLiveRunForSession_ExpiredOrDead(t *testing.T, be Backend) {
	ctx := context.Background()
	db, clk := openTest(t, be)
	alive := true
	db.ProcessAlive = func(ledger.Owner) bool { return alive }
	ws := mustWorkstream(t, db, "w")
	run, _, _ := db.AcquireLease(ctx, ws.ID, "claude", ledger.Owner{Host: ledger.CurrentOwner().Host, PID: 7})
	must(t, db.SetRunSession(ctx, run.ID, "s"))
	if live, _ := db.LiveRunForSession(ctx, "claude", "s"); !live {
		t.Fatal("want live")
	}
	alive = false
	if live, _ := db.LiveRunForSession(ctx, "claude", "s"); live {
		t.Fatal("a run whose process died counts as live")
	}
	alive = true
	clk.Advance(ledger.LeaseDuration)
	if live, _ := db.LiveRunForSession(ctx, "claude", "s"); live {
		t.Fatal("a run with a lapsed lease counts as live")
	}
}

// testLease_OtherMachineBlocksUntilLapse: a live lease held on machine A
// blocks machine B until it lapses, even when A's process looks dead from
// B (same pid and host name): B never probes A's processes. A itself takes
// over its own dead launcher's lease at once.
func testLease_OtherMachineBlocksUntilLapse(t *testing.T, be Backend) {
	ctx := context.Background()
	home := t.TempDir()
	clk := &testClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	a, b := openAs(t, be, home, machineA, clk), openAs(t, be, home, machineB, clk)
	var probed []ledger.Owner
	dead := func(o ledger.Owner) bool { probed = append(probed, o); return false }
	a.ProcessAlive, b.ProcessAlive = dead, dead
	ws := mustWorkstream(t, a, "w")
	host := ledger.Host()
	held, _, err := a.AcquireLease(ctx, ws.ID, "claude", ledger.Owner{Host: host, PID: 42, StartTime: "1"})
	if err != nil || held.Owner.Machine != machineA {
		t.Fatalf("A acquires = %+v, %v; want the run owned by %s", held, err, machineA)
	}
	must(t, a.SetRunSession(ctx, held.ID, "sa"))
	if got, _ := b.Run(ctx, held.ID); got.Owner.Machine != machineA {
		t.Fatalf("stored owner = %+v; want machine %s", got.Owner, machineA)
	}
	if live, err := b.LiveRunForSession(ctx, "claude", "sa"); err != nil || !live {
		t.Fatalf("B: LiveRunForSession = %v, %v; want live (A's process cannot be probed from B)", live, err)
	}
	clk.Advance(ledger.LeaseDuration - time.Microsecond)
	_, _, err = b.AcquireLease(ctx, ws.ID, "codex", ledger.Owner{Host: host, PID: 43})
	var busy *ledger.BusyError
	if !errors.As(err, &busy) || busy.Holder.ID != held.ID {
		t.Fatalf("B acquires while A's lease is live = %v; want *BusyError naming A's run", err)
	}
	if len(probed) != 0 {
		t.Fatalf("B probed %+v; want no probe across machines", probed)
	}
	clk.Advance(time.Microsecond)
	got, reclaimed, err := b.AcquireLease(ctx, ws.ID, "codex", ledger.Owner{Host: host, PID: 43})
	if err != nil || len(reclaimed) != 1 || reclaimed[0].ID != held.ID || reclaimed[0].State != ledger.RunExpired || got.Owner.Machine != machineB {
		t.Fatalf("B acquires after the lapse = %+v, %+v, %v; want A's run expired and B's run", got, reclaimed, err)
	}
	if _, err := a.RenewLease(ctx, held.ID); !errors.Is(err, ledger.ErrLeaseLost) {
		t.Fatalf("A renews after B took over = %v; want ErrLeaseLost", err)
	}
	// On B's own machine its dead launcher is taken over at once.
	again, reclaimed, err := b.AcquireLease(ctx, ws.ID, "claude", ledger.Owner{Host: host, PID: 44})
	if err != nil || len(reclaimed) != 1 || reclaimed[0].ID != got.ID || reclaimed[0].State != ledger.RunInterrupted {
		t.Fatalf("B over its own dead run = %+v, %+v, %v; want it interrupted", again, reclaimed, err)
	}
	if len(probed) != 1 || probed[0].PID != 43 {
		t.Fatalf("probed %+v; want only B's own run", probed)
	}
}
