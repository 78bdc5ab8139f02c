package mcpserver

import (
	"context"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/ai-memory/ai-memory/history"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const searchDoc = "Search this workstream's history: every earlier coding-agent session in this repository (any harness). " +
	"Full-text over prompts, replies, tool calls and tool output; any text is safe as a query. " +
	"An empty query returns the newest events. Hits are newest first, each with harness, session, time, role and a short excerpt; " +
	"read the whole event with read_events {\"sequence\": N}."

const sessionsDoc = "List this workstream's sessions, newest first: harness, machine, start time, first prompt, event count, " +
	"the sequence range of its events and the packet it was handed. Page with before_index."

const readDoc = "Read events of this workstream, oldest first. Give run_id to read one session, or after (a sequence) to read from there; " +
	"limit bounds the count. Long content is cut to max_chars: the event says truncated, and read_events {\"sequence\": N, \"offset\": K} returns the rest of event N from character K. " +
	"next_after, when set, continues the page."

const handoffDoc = "Show what the current launch was handed at start (the packet's event range, whether the harness confirmed it) " +
	"and what it left out: how many earlier events of the workstream are not in it. Read them with read_events or search."

// Hit is one search result.
type Hit struct {
	Sequence int64  `json:"sequence"`
	Harness  string `json:"harness"`
	Session  string `json:"session"`
	Time     string `json:"time"`
	Role     string `json:"role"`
	Kind     string `json:"kind"`
	Excerpt  string `json:"excerpt"`
}

type searchIn struct {
	Query string `json:"query,omitempty" jsonschema:"words to look for; empty returns the newest events"`
	Limit int    `json:"limit,omitempty" jsonschema:"maximum hits, 1..100 (default 20)"`
}

type searchOut struct {
	Hits []Hit `json:"hits"`
}

func (t *tools) search(ctx context.Context, _ *mcp.CallToolRequest, in searchIn) (*mcp.CallToolResult, searchOut, error) {
	out := searchOut{Hits: []Hit{}}
	if in.Limit < 0 || in.Limit > ledger.MaxSearchLimit {
		return nil, out, fmt.Errorf("limit must be between 1 and %d", ledger.MaxSearchLimit)
	}
	db, ws, ok, err := t.scope(ctx)
	if !ok {
		return nil, out, err
	}
	defer db.Close()
	evs, err := db.Search(ctx, ws.ID, in.Query, in.Limit)
	if err != nil {
		return nil, out, fmt.Errorf("search: %w", err)
	}
	for _, e := range evs {
		text, _ := cut(history.OneLine(e.Content, excerptChars*2), 0, excerptChars)
		out.Hits = append(out.Hits, Hit{Sequence: e.Sequence, Harness: e.Harness, Session: e.NativeSessionID,
			Time: when(e), Role: e.Role, Kind: string(e.Kind), Excerpt: text})
	}
	return nil, out, nil
}

// SessionOut is one session of list_sessions.
type SessionOut struct {
	Index         int    `json:"index"`
	RunID         string `json:"run_id"`
	Harness       string `json:"harness"`
	Session       string `json:"session"`
	Machine       string `json:"machine"`
	State         string `json:"state"`
	StartedAt     string `json:"started_at"`
	FirstPrompt   string `json:"first_prompt"`
	Events        int64  `json:"events"`
	FirstSequence int64  `json:"first_sequence"`
	LastSequence  int64  `json:"last_sequence"`
	HandedThrough int64  `json:"handed_through,omitempty"`
}

type sessionsIn struct {
	BeforeIndex int `json:"before_index,omitempty" jsonschema:"list sessions with a smaller index (paging); 0 starts at the newest"`
	Limit       int `json:"limit,omitempty" jsonschema:"maximum sessions, 1..100 (default 20)"`
}

type sessionsOut struct {
	Sessions   []SessionOut `json:"sessions"`
	NextBefore int          `json:"next_before_index,omitempty"`
}

func (t *tools) sessions(ctx context.Context, _ *mcp.CallToolRequest, in sessionsIn) (*mcp.CallToolResult, sessionsOut, error) {
	out := sessionsOut{Sessions: []SessionOut{}}
	limit, err := bound(in.Limit, defaultSessions, maxSessions, "limit")
	if err != nil || in.BeforeIndex < 0 {
		return nil, out, firstErr(err, fmt.Errorf("before_index must be 0 or more"))
	}
	db, ws, ok, err := t.scope(ctx)
	if !ok {
		return nil, out, err
	}
	defer db.Close()
	tl, err := history.Load(ctx, db, ws.ID, t.c.Now(), nil)
	if err != nil {
		return nil, out, fmt.Errorf("list sessions: %w", err)
	}
	for i := len(tl.Sessions) - 1; i >= 0; i-- {
		s := tl.Sessions[i]
		if in.BeforeIndex > 0 && s.Index >= in.BeforeIndex {
			continue
		}
		if len(out.Sessions) == limit {
			out.NextBefore = out.Sessions[len(out.Sessions)-1].Index
			break
		}
		o := SessionOut{Index: s.Index, RunID: s.RunID, Harness: s.Harness, Session: s.NativeSessionID, Machine: s.Machine,
			State: s.State, StartedAt: s.StartedAt.UTC().Format(time.RFC3339), FirstPrompt: history.OneLine(s.FirstPrompt, 200),
			Events: s.Events, FirstSequence: s.FirstSequence, LastSequence: s.LastSequence}
		if s.Handoff != nil {
			o.HandedThrough = s.Handoff.Through
		}
		out.Sessions = append(out.Sessions, o)
	}
	return nil, out, nil
}

// EventOut is one event of read_events.
type EventOut struct {
	Sequence  int64  `json:"sequence"`
	Harness   string `json:"harness"`
	Session   string `json:"session"`
	Time      string `json:"time"`
	Role      string `json:"role"`
	Kind      string `json:"kind"`
	Content   string `json:"content"`
	Offset    int    `json:"offset,omitempty"`
	Chars     int    `json:"chars"` // of the whole content
	Truncated bool   `json:"truncated,omitempty"`
}

type readIn struct {
	RunID    string `json:"run_id,omitempty" jsonschema:"read the events one session added (run_id from list_sessions)"`
	After    int64  `json:"after,omitempty" jsonschema:"read events with a larger sequence"`
	Sequence int64  `json:"sequence,omitempty" jsonschema:"read this one event (with offset for the rest of a truncated one)"`
	Offset   int    `json:"offset,omitempty" jsonschema:"character offset into the event's content, with sequence"`
	Limit    int    `json:"limit,omitempty" jsonschema:"maximum events, 1..50 (default 20)"`
	MaxChars int    `json:"max_chars,omitempty" jsonschema:"maximum characters of content per event, 1..8000 (default 2000)"`
}

type readOut struct {
	Events    []EventOut `json:"events"`
	NextAfter int64      `json:"next_after,omitempty"`
}

func (t *tools) read(ctx context.Context, _ *mcp.CallToolRequest, in readIn) (*mcp.CallToolResult, readOut, error) {
	out := readOut{Events: []EventOut{}}
	limit, err := bound(in.Limit, defaultEvents, maxEvents, "limit")
	if err != nil {
		return nil, out, err
	}
	chars, err := bound(in.MaxChars, defaultChars, maxChars, "max_chars")
	if err != nil {
		return nil, out, err
	}
	if in.After < 0 || in.Sequence < 0 || in.Offset < 0 {
		return nil, out, fmt.Errorf("after, sequence and offset must be 0 or more")
	}
	if in.Offset > 0 && in.Sequence == 0 {
		return nil, out, fmt.Errorf("offset needs sequence: read_events {\"sequence\": N, \"offset\": K}")
	}
	db, ws, ok, err := t.scope(ctx)
	if !ok {
		return nil, out, err
	}
	defer db.Close()
	after, through := in.After, int64(1<<62)
	switch {
	case in.Sequence > 0:
		after, through, limit = in.Sequence-1, in.Sequence, 1
	case in.RunID != "":
		tl, err := history.Load(ctx, db, ws.ID, t.c.Now(), nil)
		if err != nil {
			return nil, out, fmt.Errorf("read session: %w", err)
		}
		s, found := tl.Find(in.RunID)
		if !found {
			return nil, out, fmt.Errorf("no session %q in this workstream; list_sessions gives the run ids", in.RunID)
		}
		if s.Events == 0 {
			return nil, out, nil
		}
		after, through = max(after, s.FirstSequence-1), s.LastSequence
	}
	evs, err := db.EventsAfter(ctx, ws.ID, after, through, limit+1)
	if err != nil {
		return nil, out, fmt.Errorf("read events: %w", err)
	}
	if len(evs) > limit {
		evs = evs[:limit]
		out.NextAfter = evs[len(evs)-1].Sequence
	}
	for _, e := range evs {
		text, more := cut(e.Content, in.Offset, chars)
		out.Events = append(out.Events, EventOut{Sequence: e.Sequence, Harness: e.Harness, Session: e.NativeSessionID,
			Time: when(e), Role: e.Role, Kind: string(e.Kind), Content: text, Offset: in.Offset,
			Chars: utf8.RuneCountInString(e.Content), Truncated: more})
	}
	return nil, out, nil
}

type handoffIn struct{}

type handoffOut struct {
	RunID     string `json:"run_id"`
	Harness   string `json:"harness"`
	After     int64  `json:"after"`
	Through   int64  `json:"through"`
	Events    int64  `json:"events"`
	Confirmed bool   `json:"confirmed"`
	LeftOut   int64  `json:"left_out"` // earlier events of the workstream outside the packet
	Note      string `json:"note"`
}

func (t *tools) handoff(ctx context.Context, _ *mcp.CallToolRequest, _ handoffIn) (*mcp.CallToolResult, handoffOut, error) {
	out := handoffOut{RunID: t.c.RunID}
	if t.c.RunID == "" {
		out.Note = "this agent was not launched by `ai-memory run`, so it was handed no packet; use search and read_events"
		return nil, out, nil
	}
	db, ws, ok, err := t.scope(ctx)
	if !ok {
		out.Note = "no history yet"
		return nil, out, err
	}
	defer db.Close()
	tl, err := history.Load(ctx, db, ws.ID, t.c.Now(), nil)
	if err != nil {
		return nil, out, fmt.Errorf("handoff: %w", err)
	}
	s, found := tl.Find(t.c.RunID)
	if !found {
		out.Note = "this launch is not in the workstream's timeline yet"
		return nil, out, nil
	}
	out.Harness = s.Harness
	if s.Handoff == nil {
		out.Note = "this launch was handed no packet (nothing earlier it had not seen)"
		return nil, out, nil
	}
	h := *s.Handoff
	out.After, out.Through, out.Events, out.Confirmed = h.After, h.Through, h.Events, h.Confirmed
	out.LeftOut = h.After
	out.Note = fmt.Sprintf("the packet covered events %d..%d (bounded: long ones were cut); events 1..%d were not in it: "+
		"read them with read_events {\"after\": N} or find them with search", h.After+1, h.Through, h.After)
	return nil, out, nil
}

// cut returns up to n runes of s from rune offset off, and whether more
// follows.
func cut(s string, off, n int) (string, bool) {
	i := 0
	for range off {
		if i >= len(s) {
			return "", false
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	j := i
	for k := 0; k < n && j < len(s); k++ {
		_, w := utf8.DecodeRuneInString(s[j:])
		j += w
	}
	return s[i:j], j < len(s)
}

// bound checks an optional count: 0 takes def, outside 1..hi is an error.
func bound(v, def, hi int, name string) (int, error) {
	switch {
	case v == 0:
		return def, nil
	case v < 0 || v > hi:
		return 0, fmt.Errorf("%s must be between 1 and %d", name, hi)
	}
	return v, nil
}

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func when(e ledger.Event) string {
	t := e.OccurredAt
	if t.IsZero() {
		t = e.CreatedAt
	}
	return t.UTC().Format(time.RFC3339)
}
