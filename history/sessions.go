package history

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// Handoff is the packet a launch received: the events with After < sequence
// <= Through, and whether the harness confirmed it (hook acknowledgement or
// delivery on start).
type Handoff struct {
	After     int64 `json:"after"`
	Through   int64 `json:"through"`
	Events    int64 `json:"events"`
	Confirmed bool  `json:"confirmed"`
}

// Session is one launch of a harness in a workstream and the events it added.
type Session struct {
	Index           int        `json:"index"` // 1-based, oldest first
	RunID           string     `json:"run_id"`
	Harness         string     `json:"harness"`
	NativeSessionID string     `json:"native_session_id"`
	Machine         string     `json:"machine"` // the launching host name
	State           string     `json:"state"`
	ExitCode        *int       `json:"exit_code"`
	StartedAt       time.Time  `json:"started_at"`
	EndedAt         *time.Time `json:"ended_at"`
	DurationSeconds float64    `json:"duration_seconds"`
	FirstSequence   int64      `json:"first_sequence"` // 0 when it added nothing
	LastSequence    int64      `json:"last_sequence"`
	Events          int64      `json:"events"`
	FirstPrompt     string     `json:"first_prompt"`
	Handoff         *Handoff   `json:"handoff"`
	Checkpoint      string     `json:"checkpoint"` // repository state after the run
	Notes           string     `json:"notes"`      // import losses and failures
}

// Duration is how long the run lasted (until now while it is active).
func (s Session) Duration() time.Duration {
	return time.Duration(s.DurationSeconds * float64(time.Second))
}

// Timeline is a workstream and its sessions, oldest first.
type Timeline struct {
	Workstream   ledger.Workstream
	LastSequence int64
	Sessions     []Session
}

// promptScan bounds how far into a session the first prompt is looked for.
const promptScan = 500

// tailScan is how many of a session's last events are read for its
// checkpoint and notes (the launcher appends them last).
const tailScan = 4

// Cache keeps compiled sessions of ended runs, which never change, so a
// long-running reader (the web UI) compiles each one once. The zero value
// is not usable; a nil *Cache caches nothing.
type Cache struct {
	mu sync.Mutex
	m  map[string]Session
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{m: map[string]Session{}} }

func (c *Cache) get(runID string) (Session, bool) {
	if c == nil {
		return Session{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.m[runID]
	return s, ok
}

func (c *Cache) put(s Session) {
	if c == nil || s.State == string(ledger.RunActive) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[s.RunID] = s
}

// Load compiles the timeline of one workstream. now ends active runs; c
// may be nil.
func Load(ctx context.Context, db ledger.Ledger, wsID string, now time.Time, c *Cache) (Timeline, error) {
	ws, err := db.Workstream(ctx, wsID)
	if err != nil {
		return Timeline{}, err
	}
	last, err := db.LatestSequence(ctx, wsID)
	if err != nil {
		return Timeline{}, err
	}
	runs, err := db.RunsOldestFirst(ctx, wsID)
	if err != nil {
		return Timeline{}, err
	}
	t := Timeline{Workstream: ws, LastSequence: last, Sessions: make([]Session, 0, len(runs))}
	for i, r := range runs {
		s, ok := c.get(r.ID)
		if !ok || s.State != string(r.State) {
			sp, err := db.SpanOf(ctx, r)
			if err != nil {
				return Timeline{}, err
			}
			if s, err = session(ctx, db, sp, now); err != nil {
				return Timeline{}, fmt.Errorf("compile session %s: %w", r.ID, err)
			}
			c.put(s)
		}
		s.Index = i + 1
		t.Sessions = append(t.Sessions, s)
	}
	return t, nil
}

func session(ctx context.Context, db ledger.Ledger, sp ledger.RunSpan, now time.Time) (Session, error) {
	s := Session{RunID: sp.ID, Harness: sp.Harness, NativeSessionID: sp.NativeSessionID, Machine: sp.Owner.Host,
		State: string(sp.State), ExitCode: sp.ExitCode, StartedAt: sp.StartedAt, EndedAt: sp.EndedAt,
		FirstSequence: sp.FirstSequence, LastSequence: sp.LastSequence, Events: sp.Events()}
	end := now
	if sp.EndedAt != nil {
		end = *sp.EndedAt
	}
	if d := end.Sub(sp.StartedAt); d > 0 {
		s.DurationSeconds = d.Round(time.Millisecond).Seconds()
	}
	if sp.SyncThrough > sp.SyncAfter {
		s.Handoff = &Handoff{After: sp.SyncAfter, Through: sp.SyncThrough, Events: sp.SyncThrough - sp.SyncAfter,
			Confirmed: sp.ContextDelivered}
	}
	if s.Events == 0 {
		return s, nil
	}
	first, ok, err := db.FirstEvent(ctx, sp.WorkstreamID, s.FirstSequence,
		min(s.LastSequence, s.FirstSequence+promptScan), ledger.KindMessage, "user")
	if err != nil {
		return s, err
	}
	if ok {
		s.FirstPrompt = first.Content
	}
	tail, err := db.EventsAfter(ctx, sp.WorkstreamID, max(s.FirstSequence-1, s.LastSequence-tailScan), s.LastSequence, 0)
	if err != nil {
		return s, err
	}
	for _, e := range tail {
		switch {
		case e.Kind == ledger.KindCheckpoint && e.SourceRecordID == "run:"+sp.ID+":checkpoint":
			s.Checkpoint = e.Content
		case e.Kind == ledger.KindAnnotation && e.SourceRecordID == "run:"+sp.ID+":losses":
			s.Notes = e.Content
		}
	}
	return s, nil
}

// Find returns the session of a run, or false.
func (t Timeline) Find(runID string) (Session, bool) {
	for _, s := range t.Sessions {
		if s.RunID == runID {
			return s, true
		}
	}
	return Session{}, false
}

// SessionAt returns the session whose events include seq, or false.
func (t Timeline) SessionAt(seq int64) (Session, bool) {
	for _, s := range t.Sessions {
		if s.Events > 0 && seq >= s.FirstSequence && seq <= s.LastSequence {
			return s, true
		}
	}
	return Session{}, false
}
