package ledgersync

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/ai-memory/ai-memory/ledger"
)

// Copied counts what a copy stored. Events counts the events read from
// the source; Added those the destination did not have yet.
type Copied struct {
	Workstreams int `json:"workstreams"`
	Runs        int `json:"runs"`
	Events      int `json:"events"`
	Added       int `json:"added"`
	// Active counts runs left out because they had not ended: a launcher
	// still holds them; copy again once it has finished.
	Active int `json:"active"`
}

func (c *Copied) add(o Copied) {
	c.Workstreams += o.Workstreams
	c.Runs += o.Runs
	c.Events += o.Events
	c.Added += o.Added
	c.Active += o.Active
}

// errRunning is a run that has not ended yet.
var errRunning = errors.New("run still active")

// copyBatch bounds the events of one Append while copying.
const copyBatch = 256

// Push copies every workstream of src into dst: workstreams (matched by
// checkout and name, created when missing), ended runs as they are, every
// event of them and of imports, and the session links with their
// transcript cursors. It is idempotent: a second push adds nothing.
// Delivery cursors are not copied (their sequences are src's): a harness
// may receive one handoff packet again.
func Push(ctx context.Context, src, dst ledger.Ledger) (Copied, error) {
	all, err := src.AllWorkstreams(ctx)
	if err != nil {
		return Copied{}, fmt.Errorf("list workstreams: %w", err)
	}
	// Oldest first, each checkout's selected one last: the destination
	// then selects what the source selected.
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].Selected != all[j].Selected {
			return !all[i].Selected
		}
		return all[i].UpdatedAt.Before(all[j].UpdatedAt)
	})
	var total Copied
	for _, ws := range all {
		c, err := pushWorkstream(ctx, src, dst, ws.Workstream)
		total.add(c)
		if err != nil {
			return total, fmt.Errorf("workstream %s: %w", ws.Name, err)
		}
	}
	return total, nil
}

func pushWorkstream(ctx context.Context, src, dst ledger.Ledger, ws ledger.Workstream) (Copied, error) {
	to, err := matchWorkstream(ctx, dst, ws)
	if err != nil {
		return Copied{}, err
	}
	runs, err := src.RunsOldestFirst(ctx, ws.ID)
	if err != nil {
		return Copied{}, err
	}
	c := Copied{Workstreams: 1}
	var spans []ledger.RunSpan
	for _, r := range runs {
		sp, err := src.SpanOf(ctx, r)
		if err != nil {
			return c, err
		}
		spans = append(spans, sp)
		if !r.State.Ended() {
			c.Active++
			continue
		}
		if err := importRun(ctx, dst, r, to.ID); err != nil {
			return c, err
		}
		c.Runs++
	}
	latest, err := src.LatestSequence(ctx, ws.ID)
	if err != nil {
		return c, err
	}
	ev, err := copyEvents(ctx, src, dst, ws.ID, to.ID, 0, latest, runOf(spans))
	c.add(ev)
	if err != nil {
		return c, err
	}
	return c, copyLinks(ctx, src, dst, ws.ID, to.ID, "", "")
}

// CopyRun copies one ended run of src, with its events and its session's
// link, into the matching workstream of dst.
func CopyRun(ctx context.Context, src, dst ledger.Ledger, runID string) (Copied, error) {
	r, err := src.Run(ctx, runID)
	if err != nil {
		return Copied{}, err
	}
	if !r.State.Ended() {
		return Copied{Active: 1}, errRunning
	}
	ws, err := src.Workstream(ctx, r.WorkstreamID)
	if err != nil {
		return Copied{}, err
	}
	to, err := matchWorkstream(ctx, dst, ws)
	if err != nil {
		return Copied{}, err
	}
	if err := importRun(ctx, dst, r, to.ID); err != nil {
		return Copied{}, err
	}
	sp, err := src.SpanOf(ctx, r)
	if err != nil {
		return Copied{}, err
	}
	c := Copied{Runs: 1}
	if sp.FirstSequence > 0 {
		ev, err := copyEvents(ctx, src, dst, ws.ID, to.ID, sp.FirstSequence-1, sp.LastSequence, runOf([]ledger.RunSpan{sp}))
		c.add(ev)
		if err != nil {
			return c, err
		}
	}
	if r.NativeSessionID == "" {
		return c, nil
	}
	return c, copyLinks(ctx, src, dst, ws.ID, to.ID, r.Harness, r.NativeSessionID)
}

func importRun(ctx context.Context, dst ledger.Ledger, r ledger.Run, wsID string) error {
	r.WorkstreamID = wsID
	if err := dst.ImportRun(ctx, r); err != nil {
		return fmt.Errorf("copy run %s: %w", r.ID, err)
	}
	return nil
}

// matchWorkstream finds ws's workstream in dst by checkout and name,
// creating it when missing.
func matchWorkstream(ctx context.Context, dst ledger.Ledger, ws ledger.Workstream) (ledger.Workstream, error) {
	scope := ledger.Scope{RepoFingerprint: ws.RepoFingerprint, WorktreeFingerprint: ws.WorktreeFingerprint, Cwd: ws.Cwd}
	for range 2 {
		list, err := dst.ListWorkstreams(ctx, scope)
		if err != nil {
			return ledger.Workstream{}, err
		}
		for _, w := range list {
			if w.Name == ws.Name {
				return w.Workstream, nil
			}
		}
		w, err := dst.SelectWorkstream(ctx, scope, ledger.Selector{Name: ws.Name, Create: true})
		if !errors.Is(err, ledger.ErrExists) { // else: created meanwhile, list again
			return w, err
		}
	}
	return ledger.Workstream{}, fmt.Errorf("workstream %q: created and removed concurrently; retry", ws.Name)
}

// runOf maps a sequence to the run whose span holds it ("" for none:
// events of imports appended without a launcher) and whether to copy it
// (not when its run is still active).
func runOf(spans []ledger.RunSpan) func(seq int64) (string, bool) {
	return func(seq int64) (string, bool) {
		for _, sp := range spans {
			if sp.FirstSequence > 0 && sp.FirstSequence <= seq && seq <= sp.LastSequence {
				return sp.ID, sp.State.Ended()
			}
		}
		return "", true
	}
}

// copyEvents copies the events after < sequence <= through of src's
// workstream from into dst's workstream to, in order, batching runs of
// events of one run.
func copyEvents(ctx context.Context, src, dst ledger.Ledger, from, to string, after, through int64, run func(int64) (string, bool)) (Copied, error) {
	var c Copied
	for after < through {
		evs, err := src.EventsAfter(ctx, from, after, through, copyBatch)
		if err != nil || len(evs) == 0 {
			return c, err
		}
		after = evs[len(evs)-1].Sequence
		for _, b := range batches(src.Home(), to, evs, run) {
			res, err := dst.Append(ctx, b)
			if err != nil {
				return c, fmt.Errorf("copy events: %w", err)
			}
			c.Events += len(b.Events)
			c.Added += res.Added
		}
	}
	return c, nil
}

// batches groups consecutive events of one run into batches for wsID;
// home is the source's data home (see fullContent).
func batches(home, wsID string, evs []ledger.Event, run func(int64) (string, bool)) []ledger.Batch {
	var out []ledger.Batch
	for _, e := range evs {
		id, ok := run(e.Sequence)
		if !ok {
			continue
		}
		if n := len(out); n == 0 || out[n-1].RunID != id {
			out = append(out, ledger.Batch{WorkstreamID: wsID, RunID: id})
		}
		in := e.EventInput
		in.Content = fullContent(home, e)
		in.ByTime = e.Order != 0 && e.Order != e.Sequence
		out[len(out)-1].Events = append(out[len(out)-1].Events, in)
	}
	return out
}

// copyLinks copies the links of src's workstream from (only the one of
// harness and session when given) into to: each link's transcript cursor,
// and the current link of a harness where dst has none yet.
func copyLinks(ctx context.Context, src, dst ledger.Ledger, from, to, harness, session string) error {
	links, err := src.Links(ctx, from)
	if err != nil {
		return err
	}
	for _, l := range links {
		if l.Machine != src.Machine() || session != "" && (l.Harness != harness || l.NativeSessionID != session) {
			continue // another machine's session: dst acts as this one
		}
		if err := copyLink(ctx, dst, to, l); err != nil {
			return fmt.Errorf("copy %s session link %s: %w", l.Harness, l.NativeSessionID, err)
		}
	}
	return nil
}

func copyLink(ctx context.Context, dst ledger.Ledger, to string, l ledger.Link) error {
	if l.Current {
		if _, ok, err := dst.CurrentLink(ctx, to, l.Harness); err != nil {
			return err
		} else if !ok {
			if _, err := dst.LinkSession(ctx, to, l.Harness, l.NativeSessionID); err != nil {
				return err
			}
		}
	}
	if l.SourceCursor == "" {
		return nil
	}
	if have, ok, err := dst.SessionLink(ctx, to, l.Harness, l.NativeSessionID); err != nil || (ok && have.SourceCursor != "") {
		return err // dst's own cursor stays: it may be further on
	}
	_, err := dst.Append(ctx, ledger.Batch{WorkstreamID: to,
		Cursor: &ledger.CursorUpdate{Harness: l.Harness, NativeSessionID: l.NativeSessionID, SourceCursor: l.SourceCursor}})
	return err
}
