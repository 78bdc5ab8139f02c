package sessionindex

import (
	"fmt"
	"sort"
	"time"
)

// StartOptions describe the session being registered. Empty NativeID means
// PendingID; empty Status means StatusActive (the only accepted value).
type StartOptions struct {
	Runtime, NativeID, Focus, Status string
}

// StartResult is what [Store.Start] did.
type StartResult struct {
	Session Record
	Resumed bool // an existing record with the same runtime and native id was reopened
	// Interrupted are other active records marked interrupted because no
	// evidence said they were still alive.
	Interrupted []Record
	// Open are other active records left active: alive, or with a pending
	// native id (see docs/session-index.md).
	Open    []Record
	Evicted []Record // terminal records removed to respect the history limit
	Index   Index    // the index as written
}

// Start registers a session, or resumes the record with the same runtime
// and native id. Other active records are marked interrupted unless Alive
// says they are still running or their native id is still pending. The
// oldest terminal records beyond the history limit are evicted.
func (s *Store) Start(o StartOptions) (StartResult, error) {
	o, err := normalizeStart(o)
	if err != nil {
		return StartResult{}, err
	}
	alive := s.aliveMemo()
	var res StartResult
	err = s.update(func(ix *Index) (bool, error) {
		res = s.start(ix, o, alive)
		return true, nil
	})
	if err != nil {
		return StartResult{}, fmt.Errorf("start session: %w", err)
	}
	return res, nil
}

func normalizeStart(o StartOptions) (StartOptions, error) {
	rt, err := NormalizeRuntime(o.Runtime)
	if err != nil {
		return o, err
	}
	o.Runtime = rt
	if o.NativeID == "" {
		o.NativeID = PendingID
	}
	if err := checkNativeID(o.NativeID); err != nil {
		return o, err
	}
	if o.Status == "" {
		o.Status = StatusActive
	}
	if o.Status != StatusActive {
		return o, fmt.Errorf("start: status %q is not allowed; a started session is %q", o.Status, StatusActive)
	}
	o.Focus = normalizeFocus(o.Focus)
	return o, nil
}

// start is the pure part of Start: it mutates ix and reports what it did.
func (s *Store) start(ix *Index, o StartOptions, alive func(string, string) bool) StartResult {
	now := s.now()
	res := StartResult{}
	pos := findSession(ix, o.Runtime, o.NativeID)
	if pos >= 0 {
		r := &ix.Sessions[pos]
		r.Status, r.Ended = StatusActive, nil
		if o.Focus != "" {
			r.Focus = o.Focus
		}
		res.Resumed = true
	} else {
		ix.Sessions = append(ix.Sessions, Record{
			ID: nextID(ix, now, o.Runtime), Runtime: o.Runtime, NativeSessionID: o.NativeID,
			Started: now, Status: StatusActive, Focus: o.Focus,
		})
		pos = len(ix.Sessions) - 1
	}
	id := ix.Sessions[pos].ID
	ix.LatestSession = id
	res.Interrupted, res.Open = recoverOthers(ix, id, now, alive)
	res.Evicted = evict(ix)
	rememberIDs(ix, res.Evicted, now)
	res.Session = ix.Sessions[ix.Find(id)]
	res.Index = *ix
	return res
}

// findSession returns the newest record with that runtime and real native
// id, or -1. Placeholder ids never identify a session.
func findSession(ix *Index, runtime, nativeID string) int {
	if !isRealNativeID(nativeID) {
		return -1
	}
	best := -1
	for i, r := range ix.Sessions {
		if r.Runtime == runtime && r.NativeSessionID == nativeID &&
			(best < 0 || !r.Started.Before(ix.Sessions[best].Started)) {
			best = i
		}
	}
	return best
}

// recoverOthers marks every other active record interrupted unless it has a
// pending native id (it cannot be checked, and a session that has not
// learnt its id yet is most likely still running) or Alive vouches for it.
func recoverOthers(ix *Index, self string, now time.Time, alive func(string, string) bool) (interrupted, open []Record) {
	for i := range ix.Sessions {
		r := &ix.Sessions[i]
		if r.ID == self || r.Status != StatusActive {
			continue
		}
		if !r.hasRealNativeID() || alive(r.Runtime, r.NativeSessionID) {
			open = append(open, *r)
			continue
		}
		markInterrupted(r, now)
		interrupted = append(interrupted, *r)
	}
	return interrupted, open
}

func markInterrupted(r *Record, now time.Time) {
	r.Status = StatusInterrupted
	if r.Ended == nil {
		t := now
		r.Ended = &t
	}
}

// evict removes the oldest terminal records (by started, then file order)
// until the index fits its limit. Active records are never removed, so an
// index with many open sessions may stay above the limit.
func evict(ix *Index) []Record {
	excess := len(ix.Sessions) - ix.Limit()
	if excess <= 0 {
		return nil
	}
	var terminal []int
	for i, r := range ix.Sessions {
		if r.Terminal() {
			terminal = append(terminal, i)
		}
	}
	sort.SliceStable(terminal, func(a, b int) bool {
		return ix.Sessions[terminal[a]].Started.Before(ix.Sessions[terminal[b]].Started)
	})
	drop := map[int]bool{}
	for _, i := range terminal[:min(excess, len(terminal))] {
		drop[i] = true
	}
	return removeRecords(ix, drop)
}

func removeRecords(ix *Index, drop map[int]bool) []Record {
	var evicted []Record
	kept := ix.Sessions[:0:0]
	for i, r := range ix.Sessions {
		if drop[i] {
			evicted = append(evicted, r)
		} else {
			kept = append(kept, r)
		}
	}
	ix.Sessions = kept
	return evicted
}

// aliveMemo wraps Alive so that each session is checked at most once per
// call, even when the write is retried, and nil means "no evidence".
func (s *Store) aliveMemo() func(runtime, nativeID string) bool {
	seen := map[[2]string]bool{}
	return func(runtime, nativeID string) bool {
		if s.Alive == nil {
			return false
		}
		k := [2]string{runtime, nativeID}
		v, ok := seen[k]
		if !ok {
			v = s.Alive(runtime, nativeID)
			seen[k] = v
		}
		return v
	}
}
