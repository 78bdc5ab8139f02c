package launcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// Lease timing. The lease itself (90 s) is the ledger's; these are the
// launcher's side of it. The heartbeat renews every HeartbeatInterval or
// every third of the run's lease when that is shorter (a lease shortened
// by AI_MEMORY_LEASE_SECONDS for tests).
var (
	HeartbeatInterval = 30 * time.Second
	BusyRetryWindow   = 5 * time.Second
	BusyRetryInterval = 250 * time.Millisecond
)

// acquire takes the workstream lease, retrying a busy workstream for
// BusyRetryWindow (the holder may be finalising), then failing with the
// holder named.
func acquire(ctx context.Context, db ledger.Ledger, wsID, harnessName string, warn io.Writer) (ledger.Run, []ledger.Run, error) {
	deadline := time.Now().Add(BusyRetryWindow)
	told := false
	for {
		run, reclaimed, err := db.AcquireLease(ctx, wsID, harnessName, ledger.CurrentOwner())
		var busy *ledger.BusyError
		if !errors.As(err, &busy) {
			if err != nil {
				return run, nil, wrapperError("take workstream lease", err)
			}
			return run, reclaimed, nil
		}
		if time.Now().After(deadline) {
			return run, nil, &Error{Code: CodeBusy, Err: fmt.Errorf("%v; %s", busy, busyAdvice(harnessName))}
		}
		if !told {
			fmt.Fprintln(warn, "ai-memory: another launcher holds this workstream; waiting briefly in case it is finishing")
			told = true
		}
		select {
		case <-ctx.Done():
			return run, nil, wrapperError("take workstream lease", ctx.Err())
		case <-time.After(BusyRetryInterval):
		}
	}
}

// importRunHarness is the harness name of the run an `ai-memory import`
// holds the lease with.
const importRunHarness = "import"

// busyAdvice is what to do when the lease is held: a launch can move to
// another workstream; an import has no --new and must wait (a running
// launcher imports its own session as it goes).
func busyAdvice(harnessName string) string {
	if harnessName == importRunHarness {
		return "wait for it to finish and run `ai-memory import` again (a running `ai-memory run` imports its own session as it goes)"
	}
	return "wait for it to finish or use another workstream (--new NAME)"
}

// heartbeat renews the lease every HeartbeatInterval, and when kicked,
// until stop is called. The lease was just taken when a heartbeat starts,
// so it does not renew at once: that renewal only competed with the launch
// for the ledger before the agent started (on PostgreSQL it opened a second
// connection, with its authentication, while the launch's own statements
// ran; the launch time it saves measured within noise). It never writes to
// the terminal while the agent runs except one line when the lease is lost.
type heartbeat struct {
	cancel context.CancelFunc
	done   chan struct{}
	now    chan struct{}
	mu     sync.Mutex
	lost   error
}

func startHeartbeat(ctx context.Context, db ledger.Ledger, run ledger.Run) *heartbeat {
	ctx, cancel := context.WithCancel(ctx)
	h := &heartbeat{cancel: cancel, done: make(chan struct{}), now: make(chan struct{}, 1)}
	go h.loop(ctx, db, run.ID, heartbeatEvery(run))
	return h
}

// heartbeatEvery is the renewal interval of run: HeartbeatInterval, or a
// third of its lease when that is shorter. The lease length is read off
// the run (both times are the ledger's clock), so it needs no knob here.
func heartbeatEvery(run ledger.Run) time.Duration {
	every := HeartbeatInterval
	if third := run.LeaseExpiresAt.Sub(run.StartedAt) / 3; third > 0 && third < every {
		every = third
	}
	return every
}

func (h *heartbeat) loop(ctx context.Context, db ledger.Ledger, runID string, every time.Duration) {
	defer close(h.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-h.now:
		}
		if _, err := db.RenewLease(ctx, runID); err != nil && ctx.Err() == nil {
			h.mu.Lock()
			if h.lost == nil {
				h.lost = err
			}
			h.mu.Unlock()
		}
	}
}

// kick asks for one renewal now (used right after the agent started).
func (h *heartbeat) kick() {
	select {
	case h.now <- struct{}{}:
	default:
	}
}

// stop ends the heartbeat and reports the first renewal failure, if any.
func (h *heartbeat) stop() error {
	h.cancel()
	<-h.done
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lost
}
