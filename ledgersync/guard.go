package ledgersync

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// DefaultRetry is how often a Guard asks an unreachable ledger whether it
// is back (renewing the run's lease when it is).
const DefaultRetry = 5 * time.Second

// closeFlushTimeout bounds the last replay when the run ends.
const closeFlushTimeout = 10 * time.Second

// Guard is the ledger of one run, kept safe from outages: the writes of
// the run (Append, LinkSession, SetRunSession, FinishRun) that fail with
// ledger.ErrUnavailable are kept in the run's journal and reported as
// done; the next write, a successful heartbeat or a retry replays the
// journal first, so the ledger receives everything in the order the run
// wrote it. One notice when the ledger goes away, one when it is back;
// nothing in between. Other calls pass through unchanged.
type Guard struct {
	ledger.Ledger
	run, path string
	warn      io.Writer
	// Retry is the interval of the quiet retries while the ledger is
	// unreachable (DefaultRetry); set it before the first call.
	Retry time.Duration

	wmu sync.Mutex // one write or replay at a time: the journal keeps order

	mu      sync.Mutex // the fields below
	down    bool
	pending int // journal records not replayed yet
	events  int // events in them
	sent    int // events sent by replays
	cursors map[linkKey]ledger.Link
	stop    chan struct{} // ends the retry loop; nil when none runs
	closed  bool
}

type linkKey struct{ ws, harness, session string }

// NewGuard wraps l, the ledger of run runID; the journal lives in l's
// data home and notices go to warn.
func NewGuard(l ledger.Ledger, runID string, warn io.Writer) *Guard {
	return &Guard{Ledger: l, run: runID, path: JournalPath(l.Home(), runID), warn: warn, Retry: DefaultRetry, cursors: map[linkKey]ledger.Link{}}
}

// Journal is the path of the run's journal (present only while it holds
// records the ledger has not received).
func (g *Guard) Journal() string { return g.path }

// Append appends b, or keeps it in the journal while the ledger cannot be
// reached (then it reports nothing added: the events are not stored yet).
func (g *Guard) Append(ctx context.Context, b ledger.Batch) (ledger.AppendResult, error) {
	var res ledger.AppendResult
	err := g.write(ctx, func() (record, error) { return batchRecord(b) }, func() error {
		var err error
		res, err = g.Ledger.Append(ctx, b)
		return err
	})
	if err == nil && b.Cursor != nil {
		g.rememberCursor(b.WorkstreamID, *b.Cursor)
	}
	return res, err
}

// LinkSession links the session, or keeps the link for later.
func (g *Guard) LinkSession(ctx context.Context, wsID, harness, nativeID string) (ledger.Link, error) {
	link := ledger.Link{WorkstreamID: wsID, Harness: harness, NativeSessionID: nativeID, Current: true}
	rec := record{Op: opLink, Workstream: wsID, Harness: harness, Session: nativeID}
	err := g.write(ctx, recordOf(rec), func() error {
		var err error
		link, err = g.Ledger.LinkSession(ctx, wsID, harness, nativeID)
		return err
	})
	return link, err
}

// SetRunSession records the run's session, or keeps it for later.
func (g *Guard) SetRunSession(ctx context.Context, runID, nativeID string) error {
	rec := record{Op: opSession, Run: runID, Session: nativeID}
	return g.write(ctx, recordOf(rec), func() error { return g.Ledger.SetRunSession(ctx, runID, nativeID) })
}

// FinishRun finishes the run, or keeps the finish for later.
func (g *Guard) FinishRun(ctx context.Context, runID string, exitCode *int) error {
	rec := record{Op: opFinish, Run: runID, ExitCode: exitCode}
	return g.write(ctx, recordOf(rec), func() error { return g.Ledger.FinishRun(ctx, runID, exitCode) })
}

// RenewLease renews the lease; an answer of any kind (even "lease lost")
// shows the ledger is reachable, and what was kept is sent.
func (g *Guard) RenewLease(ctx context.Context, runID string) (time.Time, error) {
	t, err := g.Ledger.RenewLease(ctx, runID)
	if errors.Is(err, ledger.ErrUnavailable) {
		g.wentDown(err)
		return t, err
	}
	g.recover(ctx)
	return t, err
}

// SessionLink reads the link; while the ledger cannot be reached it
// answers from the cursors this run saw or kept, so an import carries on
// from where it was (or, for a session it never saw, from the start: the
// replay skips what the ledger already has).
func (g *Guard) SessionLink(ctx context.Context, wsID, harness, nativeID string) (ledger.Link, bool, error) {
	link, ok, err := g.Ledger.SessionLink(ctx, wsID, harness, nativeID)
	k := linkKey{wsID, harness, nativeID}
	g.mu.Lock()
	defer g.mu.Unlock()
	if errors.Is(err, ledger.ErrUnavailable) {
		link, ok = g.cursors[k]
		return link, ok, nil
	}
	if err == nil && ok && g.pending == 0 {
		g.cursors[k] = link
	}
	return link, ok, err
}

// Close makes a last attempt to send what was kept, says where it stays
// when the ledger is still away, and closes the ledger.
func (g *Guard) Close() error {
	g.mu.Lock()
	g.closed = true
	g.stopRetries()
	g.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), closeFlushTimeout)
	defer cancel()
	g.wmu.Lock()
	if g.pendingRecords() > 0 {
		g.flushLocked(ctx)
	}
	g.wmu.Unlock()
	g.mu.Lock()
	if g.pending > 0 {
		g.say("%d event(s) of this run are kept in %s because the ledger is still unreachable; `ai-memory ledger sync` sends them when it is back", g.events, g.path)
	}
	g.mu.Unlock()
	return g.Ledger.Close()
}

// write runs call after any kept records are replayed, or keeps the
// record rec makes when the ledger cannot be reached (before or during
// the call). The caller is told the write is done once the record is on
// disk.
func (g *Guard) write(ctx context.Context, rec func() (record, error), call func() error) error {
	g.wmu.Lock()
	defer g.wmu.Unlock()
	if g.pendingRecords() > 0 {
		if err := g.flushLocked(ctx); err != nil {
			return g.keep(rec, err)
		}
	}
	err := call()
	if !errors.Is(err, ledger.ErrUnavailable) {
		g.cameBack()
		return err
	}
	g.wentDown(err)
	return g.keep(rec, err)
}

func recordOf(r record) func() (record, error) { return func() (record, error) { return r, nil } }

// keep journals one record; cause is why it could not be sent.
func (g *Guard) keep(rec func() (record, error), cause error) error {
	r, err := rec()
	if err == nil {
		err = appendRecord(g.path, r)
	}
	if err != nil {
		return fmt.Errorf("%w; and it could not be kept for later: %v", cause, err)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pending++
	g.events += len(r.Events)
	if c := r.Cursor; c != nil {
		k := linkKey{r.Workstream, c.Harness, c.NativeSessionID}
		g.cursors[k] = ledger.Link{WorkstreamID: r.Workstream, Harness: c.Harness, NativeSessionID: c.NativeSessionID, SourceCursor: c.SourceCursor}
	}
	return nil
}

// flushLocked replays the journal (the caller holds wmu) and removes it
// once the ledger has everything.
func (g *Guard) flushLocked(ctx context.Context) error {
	recs, err := readJournal(g.path)
	var done Replayed
	if err == nil {
		done, err = replay(ctx, g.Ledger, recs)
	}
	if err != nil {
		if errors.Is(err, ledger.ErrUnavailable) {
			g.wentDown(err)
		}
		return err
	}
	if err := os.Remove(g.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove the replayed journal: %w", err)
	}
	g.mu.Lock()
	g.pending, g.events = 0, 0
	g.sent += done.Events
	g.mu.Unlock()
	g.cameBack()
	return nil
}

// recover replays what was kept, or just notes the ledger is back.
func (g *Guard) recover(ctx context.Context) {
	g.wmu.Lock()
	defer g.wmu.Unlock()
	if g.pendingRecords() > 0 {
		g.flushLocked(ctx)
		return
	}
	g.cameBack()
}

func (g *Guard) pendingRecords() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.pending
}

func (g *Guard) rememberCursor(wsID string, c ledger.CursorUpdate) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.cursors[linkKey{wsID, c.Harness, c.NativeSessionID}] = ledger.Link{WorkstreamID: wsID, Harness: c.Harness, NativeSessionID: c.NativeSessionID, SourceCursor: c.SourceCursor}
}

// wentDown notes an outage: one notice, and quiet retries until it ends.
func (g *Guard) wentDown(cause error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.down {
		return
	}
	g.down = true
	loc := ledger.HidePassword(g.Ledger.Location())
	g.say("the ledger %s is unreachable (%v); the agent keeps running and what it records is kept in %s until the ledger is back",
		loc, ledger.ScrubError(cause, g.Ledger.Location()), g.path)
	if !g.closed {
		g.stop = make(chan struct{})
		go g.retryLoop(g.stop)
	}
}

// cameBack ends an outage once nothing is left to send: one notice.
func (g *Guard) cameBack() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.down || g.pending > 0 {
		return
	}
	g.down = false
	g.stopRetries()
	if g.sent == 0 {
		g.say("the ledger is reachable again")
		return
	}
	g.say("the ledger is reachable again; %d kept event(s) sent", g.sent)
	g.sent = 0
}

// stopRetries ends the retry loop (the caller holds mu).
func (g *Guard) stopRetries() {
	if g.stop != nil {
		close(g.stop)
		g.stop = nil
	}
}

// retryLoop asks the ledger every Retry whether it is back, renewing the
// run's lease (which also keeps the run the workstream's writer).
func (g *Guard) retryLoop(stop chan struct{}) {
	t := time.NewTicker(g.Retry)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), g.Retry+closeFlushTimeout)
			g.RenewLease(ctx, g.run)
			cancel()
		}
	}
}

// say prints one notice (the caller holds mu).
func (g *Guard) say(format string, args ...any) {
	fmt.Fprintf(g.warn, "ai-memory: "+format+"\n", args...)
}
