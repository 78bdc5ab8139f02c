package ledgertest

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// Faulty is a Ledger whose calls fail with ledger.ErrUnavailable while it
// is down, the way a server backend fails during an outage: it tests the
// outage handling (package ledgersync, the launcher) without a server.
// Home, Location, Machine, SchemaVersion and Close never fail.
type Faulty struct {
	ledger.Ledger
	down atomic.Bool
	// Switch, when set, is consulted on every call as well: the ledger is
	// down while it reports true (the e2e scripts use a file's existence).
	Switch func() bool
	// Calls counts the calls that failed.
	Calls atomic.Int64
}

// NewFaulty wraps l, up.
func NewFaulty(l ledger.Ledger) *Faulty { return &Faulty{Ledger: l} }

// SetDown turns the outage on or off.
func (f *Faulty) SetDown(down bool) { f.down.Store(down) }

// fail is the outage error, nil while up.
func (f *Faulty) fail(op string) error {
	if !f.down.Load() && (f.Switch == nil || !f.Switch()) {
		return nil
	}
	f.Calls.Add(1)
	return fmt.Errorf("%s: connect: connection refused (test outage): %w", op, ledger.ErrUnavailable)
}

func (f *Faulty) SelectWorkstream(ctx context.Context, s ledger.Scope, sel ledger.Selector) (ledger.Workstream, error) {
	if err := f.fail("select workstream"); err != nil {
		return ledger.Workstream{}, err
	}
	return f.Ledger.SelectWorkstream(ctx, s, sel)
}

func (f *Faulty) CurrentWorkstream(ctx context.Context, s ledger.Scope) (ledger.Workstream, bool, error) {
	if err := f.fail("current workstream"); err != nil {
		return ledger.Workstream{}, false, err
	}
	return f.Ledger.CurrentWorkstream(ctx, s)
}

func (f *Faulty) WorkstreamByID(ctx context.Context, id string) (ledger.Workstream, error) {
	if err := f.fail("workstream"); err != nil {
		return ledger.Workstream{}, err
	}
	return f.Ledger.WorkstreamByID(ctx, id)
}

func (f *Faulty) Workstream(ctx context.Context, wsID string) (ledger.Workstream, error) {
	if err := f.fail("workstream"); err != nil {
		return ledger.Workstream{}, err
	}
	return f.Ledger.Workstream(ctx, wsID)
}

func (f *Faulty) ListWorkstreams(ctx context.Context, s ledger.Scope) ([]ledger.WorkstreamSummary, error) {
	if err := f.fail("list workstreams"); err != nil {
		return nil, err
	}
	return f.Ledger.ListWorkstreams(ctx, s)
}

func (f *Faulty) AllWorkstreams(ctx context.Context) ([]ledger.WorkstreamSummary, error) {
	if err := f.fail("list workstreams"); err != nil {
		return nil, err
	}
	return f.Ledger.AllWorkstreams(ctx)
}

func (f *Faulty) Established(ctx context.Context, wsID string) (bool, error) {
	if err := f.fail("established"); err != nil {
		return false, err
	}
	return f.Ledger.Established(ctx, wsID)
}

func (f *Faulty) MoveScope(ctx context.Context, from, to ledger.Scope) (int, error) {
	if err := f.fail("move workstreams"); err != nil {
		return 0, err
	}
	return f.Ledger.MoveScope(ctx, from, to)
}

func (f *Faulty) AcquireLease(ctx context.Context, wsID, harness string, owner ledger.Owner) (ledger.Run, []ledger.Run, error) {
	if err := f.fail("acquire lease"); err != nil {
		return ledger.Run{}, nil, err
	}
	return f.Ledger.AcquireLease(ctx, wsID, harness, owner)
}

func (f *Faulty) RenewLease(ctx context.Context, runID string) (time.Time, error) {
	if err := f.fail("renew lease"); err != nil {
		return time.Time{}, err
	}
	return f.Ledger.RenewLease(ctx, runID)
}

func (f *Faulty) FinishRun(ctx context.Context, runID string, exitCode *int) error {
	if err := f.fail("finish run"); err != nil {
		return err
	}
	return f.Ledger.FinishRun(ctx, runID, exitCode)
}

func (f *Faulty) CancelRun(ctx context.Context, runID string) error {
	if err := f.fail("cancel run"); err != nil {
		return err
	}
	return f.Ledger.CancelRun(ctx, runID)
}

func (f *Faulty) SetRunSession(ctx context.Context, runID, nativeID string) error {
	if err := f.fail("set run session"); err != nil {
		return err
	}
	return f.Ledger.SetRunSession(ctx, runID, nativeID)
}

func (f *Faulty) SetRunSync(ctx context.Context, runID string, after, through int64) error {
	if err := f.fail("set run sync"); err != nil {
		return err
	}
	return f.Ledger.SetRunSync(ctx, runID, after, through)
}

func (f *Faulty) MarkContextDelivered(ctx context.Context, runID string) error {
	if err := f.fail("mark context delivered"); err != nil {
		return err
	}
	return f.Ledger.MarkContextDelivered(ctx, runID)
}

func (f *Faulty) Run(ctx context.Context, runID string) (ledger.Run, error) {
	if err := f.fail("run"); err != nil {
		return ledger.Run{}, err
	}
	return f.Ledger.Run(ctx, runID)
}

func (f *Faulty) Runs(ctx context.Context, wsID string, limit int) ([]ledger.Run, error) {
	if err := f.fail("runs"); err != nil {
		return nil, err
	}
	return f.Ledger.Runs(ctx, wsID, limit)
}

func (f *Faulty) RunsOldestFirst(ctx context.Context, wsID string) ([]ledger.Run, error) {
	if err := f.fail("runs"); err != nil {
		return nil, err
	}
	return f.Ledger.RunsOldestFirst(ctx, wsID)
}

func (f *Faulty) SpanOf(ctx context.Context, r ledger.Run) (ledger.RunSpan, error) {
	if err := f.fail("span of run"); err != nil {
		return ledger.RunSpan{}, err
	}
	return f.Ledger.SpanOf(ctx, r)
}

func (f *Faulty) LiveRunForSession(ctx context.Context, harness, nativeID string) (bool, error) {
	if err := f.fail("live run"); err != nil {
		return false, err
	}
	return f.Ledger.LiveRunForSession(ctx, harness, nativeID)
}

func (f *Faulty) ImportRun(ctx context.Context, r ledger.Run) error {
	if err := f.fail("import run"); err != nil {
		return err
	}
	return f.Ledger.ImportRun(ctx, r)
}

func (f *Faulty) LinkSession(ctx context.Context, wsID, harness, nativeID string) (ledger.Link, error) {
	if err := f.fail("link session"); err != nil {
		return ledger.Link{}, err
	}
	return f.Ledger.LinkSession(ctx, wsID, harness, nativeID)
}

func (f *Faulty) CurrentLink(ctx context.Context, wsID, harness string) (ledger.Link, bool, error) {
	if err := f.fail("current link"); err != nil {
		return ledger.Link{}, false, err
	}
	return f.Ledger.CurrentLink(ctx, wsID, harness)
}

func (f *Faulty) SessionLink(ctx context.Context, wsID, harness, nativeID string) (ledger.Link, bool, error) {
	if err := f.fail("session link"); err != nil {
		return ledger.Link{}, false, err
	}
	return f.Ledger.SessionLink(ctx, wsID, harness, nativeID)
}

func (f *Faulty) Links(ctx context.Context, wsID string) ([]ledger.Link, error) {
	if err := f.fail("links"); err != nil {
		return nil, err
	}
	return f.Ledger.Links(ctx, wsID)
}

func (f *Faulty) AdvanceDelivery(ctx context.Context, wsID, harness, nativeID string, seq int64) error {
	if err := f.fail("advance delivery"); err != nil {
		return err
	}
	return f.Ledger.AdvanceDelivery(ctx, wsID, harness, nativeID, seq)
}

func (f *Faulty) Append(ctx context.Context, b ledger.Batch) (ledger.AppendResult, error) {
	if err := f.fail("append"); err != nil {
		return ledger.AppendResult{}, err
	}
	return f.Ledger.Append(ctx, b)
}

func (f *Faulty) LatestSequence(ctx context.Context, wsID string) (int64, error) {
	if err := f.fail("latest sequence"); err != nil {
		return 0, err
	}
	return f.Ledger.LatestSequence(ctx, wsID)
}

func (f *Faulty) CountEvents(ctx context.Context, wsID string) (int64, error) {
	if err := f.fail("count events"); err != nil {
		return 0, err
	}
	return f.Ledger.CountEvents(ctx, wsID)
}

func (f *Faulty) EventsInRange(ctx context.Context, wsID string, after, through int64, limit int) ([]ledger.Event, error) {
	if err := f.fail("read events"); err != nil {
		return nil, err
	}
	return f.Ledger.EventsInRange(ctx, wsID, after, through, limit)
}

func (f *Faulty) EventsAfter(ctx context.Context, wsID string, after, through int64, limit int) ([]ledger.Event, error) {
	if err := f.fail("read events"); err != nil {
		return nil, err
	}
	return f.Ledger.EventsAfter(ctx, wsID, after, through, limit)
}

func (f *Faulty) LatestEvent(ctx context.Context, wsID string, kind ledger.Kind) (ledger.Event, bool, error) {
	if err := f.fail("latest event"); err != nil {
		return ledger.Event{}, false, err
	}
	return f.Ledger.LatestEvent(ctx, wsID, kind)
}

func (f *Faulty) FirstEvent(ctx context.Context, wsID string, from, through int64, kind ledger.Kind, role string) (ledger.Event, bool, error) {
	if err := f.fail("first event"); err != nil {
		return ledger.Event{}, false, err
	}
	return f.Ledger.FirstEvent(ctx, wsID, from, through, kind, role)
}

func (f *Faulty) Search(ctx context.Context, wsID, query string, limit int) ([]ledger.Event, error) {
	if err := f.fail("search"); err != nil {
		return nil, err
	}
	return f.Ledger.Search(ctx, wsID, query, limit)
}

func (f *Faulty) Health(ctx context.Context, opt ledger.HealthOptions) (ledger.Health, error) {
	if err := f.fail("health"); err != nil {
		return ledger.Health{}, err
	}
	return f.Ledger.Health(ctx, opt)
}

func (f *Faulty) Rebuild(ctx context.Context) (ledger.RebuildResult, error) {
	if err := f.fail("rebuild"); err != nil {
		return ledger.RebuildResult{}, err
	}
	return f.Ledger.Rebuild(ctx)
}
