package launcher

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/internal/testledger"
	"github.com/ai-memory/ai-memory/ledger"
)

// testClock is a settable clock for the ledger.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

func openTestLedger(t *testing.T) (ledger.Ledger, ledger.Workstream, *testClock) {
	t.Helper()
	db, err := ledger.Open(context.Background(), testledger.Where(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clock := &testClock{t: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	testledger.SetClock(t, db, clock.Now)
	ws, err := db.SelectWorkstream(context.Background(), ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w", Cwd: "/x"}, ledger.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	return db, ws, clock
}

func TestAcquireBusyNamesHolder(t *testing.T) {
	db, ws, _ := openTestLedger(t)
	old := BusyRetryWindow
	BusyRetryWindow = 300 * time.Millisecond
	t.Cleanup(func() { BusyRetryWindow = old })
	ctx := context.Background()
	if _, _, err := acquire(ctx, db, ws.ID, "claude", io.Discard); err != nil {
		t.Fatal(err)
	}
	var warn strings.Builder
	_, _, err := acquire(ctx, db, ws.ID, "codex", &warn)
	var le *Error
	if !errors.As(err, &le) || le.Code != CodeBusy {
		t.Fatalf("second acquire: %v, want code %d", err, CodeBusy)
	}
	if !strings.Contains(err.Error(), "claude run on") || !strings.Contains(err.Error(), "--new NAME") {
		t.Errorf("message does not name the holder and what to do: %q", err)
	}
	if !strings.Contains(warn.String(), "waiting briefly") {
		t.Errorf("no waiting notice: %q", warn.String())
	}
}

func TestHeartbeatRenewsAndKick(t *testing.T) {
	db, ws, clock := openTestLedger(t)
	old := HeartbeatInterval
	HeartbeatInterval = time.Hour // only kicks renew
	t.Cleanup(func() { HeartbeatInterval = old })
	ctx := context.Background()
	run, _, err := acquire(ctx, db, ws.ID, "claude", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	clock.Set(clock.Now().Add(60 * time.Second))
	hb := startHeartbeat(ctx, db, run)
	time.Sleep(50 * time.Millisecond)
	if r, err := db.Run(ctx, run.ID); err != nil || !r.LeaseExpiresAt.Equal(run.LeaseExpiresAt) {
		t.Fatalf("the heartbeat renewed the lease it was just given before its interval: %v, %v", r.LeaseExpiresAt, err)
	}
	hb.kick()
	waitLease(t, db, run.ID, clock.Now().Add(ledger.LeaseDuration))
	clock.Set(clock.Now().Add(60 * time.Second))
	hb.kick()
	waitLease(t, db, run.ID, clock.Now().Add(ledger.LeaseDuration))
	if err := hb.stop(); err != nil {
		t.Fatalf("heartbeat reported %v", err)
	}
}

func TestHeartbeatReportsLostLease(t *testing.T) {
	db, ws, _ := openTestLedger(t)
	ctx := context.Background()
	run, _, err := acquire(ctx, db, ws.ID, "claude", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CancelRun(ctx, run.ID); err != nil {
		t.Fatal(err)
	}
	hb := startHeartbeat(ctx, db, run)
	hb.kick()
	deadline := time.Now().Add(5 * time.Second)
	for {
		hb.mu.Lock()
		lost := hb.lost
		hb.mu.Unlock()
		if lost != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("lost lease never reported")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := hb.stop(); !errors.Is(err, ledger.ErrLeaseLost) {
		t.Fatalf("stop() = %v, want ErrLeaseLost", err)
	}
}

func waitLease(t *testing.T, db ledger.Ledger, runID string, want time.Time) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		r, err := db.Run(context.Background(), runID)
		if err != nil {
			t.Fatal(err)
		}
		if !r.LeaseExpiresAt.Before(want) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("lease of %s never renewed to %v", runID, want)
}

func TestHeartbeatEvery_AThirdOfAShortLease(t *testing.T) {
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		lease, want time.Duration
	}{
		{ledger.LeaseDuration, 30 * time.Second},
		{3 * time.Second, time.Second},
		{9 * time.Second, 3 * time.Second},
		{0, 30 * time.Second}, // no lease length known: the default
	}
	for _, tt := range tests {
		run := ledger.Run{StartedAt: start, LeaseExpiresAt: start.Add(tt.lease)}
		if got := heartbeatEvery(run); got != tt.want {
			t.Errorf("lease %v: heartbeat every %v; want %v", tt.lease, got, tt.want)
		}
	}
}
