package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/ai-memory/ai-memory/ledger"
)

// RunsOldestFirst lists a workstream's runs in launch order.
func (db *DB) RunsOldestFirst(ctx context.Context, wsID string) ([]ledger.Run, error) {
	rows, err := db.sql.QueryContext(ctx, sqlRunsOldestFirst, wsID)
	if err != nil {
		return nil, db.wrap(err, "list runs")
	}
	defer rows.Close()
	var out []ledger.Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, db.wrap(err, "list runs")
		}
		out = append(out, r)
	}
	return out, db.wrap(rows.Err(), "list runs")
}

// SpanOf finds the sequence range of the events run r appended.
//
// Events carry no run id, but each segment file is named after the run that
// appended it, and a workstream's segment ids grow with its sequences (one
// writer per workstream, append order). So the range is found by binary
// search over the (wsk, sequence) index: about 2·log2(events) point lookups
// instead of a scan of the events, which keeps the timeline of a
// million-event workstream fast.
func (db *DB) SpanOf(ctx context.Context, r ledger.Run) (ledger.RunSpan, error) {
	sp := ledger.RunSpan{Run: r}
	var wsk, last int64
	err := db.sql.QueryRowContext(ctx, sqlWorkstreamCounters, r.WorkstreamID).Scan(&wsk, &last)
	if err != nil {
		return sp, db.notFound(err, r.WorkstreamID, "read workstream")
	}
	lo, hi, err := db.runSegments(ctx, r.WorkstreamID, r.ID)
	if err != nil || lo == 0 {
		return sp, err
	}
	first, err := db.firstSequenceWithSegment(ctx, wsk, last, lo)
	if err != nil {
		return sp, err
	}
	end, err := db.firstSequenceWithSegment(ctx, wsk, last, hi+1)
	if err != nil {
		return sp, err
	}
	if first <= last && end > first {
		sp.FirstSequence, sp.LastSequence = first, end-1
	}
	return sp, nil
}

// runSegments returns the smallest and largest segment id of a run (0, 0
// when it wrote none).
func (db *DB) runSegments(ctx context.Context, wsID, runID string) (lo, hi int64, err error) {
	prefix := "segments/" + wsID + "/" + runID + "-"
	err = db.sql.QueryRowContext(ctx, sqlRunSegmentRange, prefix, prefix+"\U0010FFFF").Scan(&lo, &hi)
	return lo, hi, db.wrap(err, "read run segments")
}

// firstSequenceWithSegment is the smallest sequence in [1, last] whose
// event's segment id is >= seg, or last+1 when there is none.
func (db *DB) firstSequenceWithSegment(ctx context.Context, wsk, last, seg int64) (int64, error) {
	lo, hi := int64(1), last+1
	for lo < hi {
		mid := lo + (hi-lo)/2
		var at, s int64
		err := db.sql.QueryRowContext(ctx, sqlSegmentAtSequence, wsk, mid).Scan(&at, &s)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			hi = mid
			continue
		case err != nil:
			return 0, db.wrap(err, "locate run events")
		}
		if s >= seg {
			hi = mid
		} else {
			lo = at + 1
		}
	}
	return lo, nil
}

// EventsAfter returns up to limit events with after < sequence <= through,
// oldest first (limit <= 0: all). It is the timeline's page query.
func (db *DB) EventsAfter(ctx context.Context, wsID string, after, through int64, limit int) ([]ledger.Event, error) {
	wsk, err := db.wsKey(ctx, wsID)
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = -1
	}
	return db.queryEvents(ctx, wsID, sqlEventsAscending, wsk, after, through, limit)
}

// FirstEvent returns the first event of kind and role with from <= sequence
// <= through. Callers bound the range: the query scans it.
func (db *DB) FirstEvent(ctx context.Context, wsID string, from, through int64, kind ledger.Kind, role string) (ledger.Event, bool, error) {
	wsk, err := db.wsKey(ctx, wsID)
	if err != nil {
		return ledger.Event{}, false, err
	}
	evs, err := db.queryEvents(ctx, wsID, sqlFirstOfKindRole, wsk, from, through, string(kind), role)
	if err != nil || len(evs) == 0 {
		return ledger.Event{}, false, err
	}
	return evs[0], true, nil
}

// AllWorkstreams lists the workstreams of every checkout, most recently
// updated first. Selected marks each checkout's selected one.
func (db *DB) AllWorkstreams(ctx context.Context) ([]ledger.WorkstreamSummary, error) {
	rows, err := db.sql.QueryContext(ctx, sqlAllWorkstreams)
	if err != nil {
		return nil, db.wrap(err, "list all workstreams")
	}
	defer rows.Close()
	var out []ledger.WorkstreamSummary
	for rows.Next() {
		var s ledger.WorkstreamSummary
		var c, sel, u int64
		if err := rows.Scan(&s.ID, &s.Name, &s.RepoFingerprint, &s.WorktreeFingerprint, &s.Cwd,
			&c, &sel, &u, &s.Events, &s.LastHarness); err != nil {
			return nil, db.wrap(err, "list all workstreams")
		}
		s.CreatedAt, s.SelectedAt, s.UpdatedAt = fromMicro(c), fromMicro(sel), fromMicro(u)
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, db.wrap(err, "list all workstreams")
	}
	rows.Close()
	markSelected(out)
	for i := range out {
		if out[i].Harnesses, err = db.harnesses(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// markSelected sets Selected on the newest-selected workstream of each checkout.
func markSelected(list []ledger.WorkstreamSummary) {
	type scope struct{ repo, wt string }
	best := map[scope]int{}
	for i, s := range list {
		k := scope{s.RepoFingerprint, s.WorktreeFingerprint}
		if j, ok := best[k]; !ok || s.SelectedAt.After(list[j].SelectedAt) {
			best[k] = i
		}
	}
	for _, i := range best {
		list[i].Selected = true
	}
}

// Workstream returns one workstream by id.
func (db *DB) Workstream(ctx context.Context, wsID string) (ledger.Workstream, error) {
	ws, err := scanWorkstream(db.sql.QueryRowContext(ctx, sqlWorkstreamByID, wsID))
	return ws, db.notFound(err, wsID, "read workstream")
}
