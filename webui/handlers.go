package webui

import (
	"net/http"
	"strings"

	"github.com/ai-memory/ai-memory/history"
	"github.com/ai-memory/ai-memory/ledger"
)

type wsRow struct {
	ledger.WorkstreamSummary
	Sessions int
}

type workstreamsView struct {
	All   bool
	Scope bool // a checkout scope is known
	Rows  []wsRow
}

func (s *Server) workstreams(w http.ResponseWriter, r *http.Request) {
	st := s.store()
	v := workstreamsView{All: r.URL.Query().Get("all") == "1", Scope: s.opts.Scope.RepoFingerprint != ""}
	var list []ledger.WorkstreamSummary
	var err error
	if v.All || !v.Scope {
		v.All = true
		list, err = st.db.AllWorkstreams(s.ctx(r))
	} else {
		list, err = st.db.ListWorkstreams(s.ctx(r), s.opts.Scope)
	}
	if err != nil {
		fail(w, err)
		return
	}
	for _, ws := range list {
		runs, err := st.db.Runs(s.ctx(r), ws.ID, 0)
		if err != nil {
			fail(w, err)
			return
		}
		v.Rows = append(v.Rows, wsRow{ws, len(runs)})
	}
	s.render(w, "workstreams.html", v)
}

// block is a run of page events that belong to one session (nil: events
// no launch appended, e.g. `ai-memory import`).
type block struct {
	WS      string
	Session *history.Session
	Events  []ledger.Event
}

type timelineView struct {
	T      history.Timeline
	Page   history.Page
	Blocks []block
	Live   bool // this is the newest page: poll for more
}

func (s *Server) timeline(w http.ResponseWriter, r *http.Request) {
	st := s.store()
	t, err := history.Load(s.ctx(r), st.db, r.PathValue("ws"), s.opts.Now(), st.cache)
	if err != nil {
		fail(w, err)
		return
	}
	after := int64(-1)
	if r.URL.Query().Has("after") {
		after = queryInt(r, "after", -1)
	}
	p, err := history.LoadPage(s.ctx(r), st.db, t.Workstream.ID, after)
	if err != nil {
		fail(w, err)
		return
	}
	s.render(w, "timeline.html", timelineView{T: t, Page: p, Blocks: blocks(t, p.Events, 0), Live: p.Later() < 0})
}

// tail is the live update: the events after ?after= as an HTML fragment,
// with the newest sequence in X-Last-Sequence.
func (s *Server) tail(w http.ResponseWriter, r *http.Request) {
	st := s.store()
	after := queryInt(r, "after", 0)
	t, err := history.Load(s.ctx(r), st.db, r.PathValue("ws"), s.opts.Now(), st.cache)
	if err != nil {
		fail(w, err)
		return
	}
	p, err := history.LoadPage(s.ctx(r), st.db, t.Workstream.ID, after)
	if err != nil {
		fail(w, err)
		return
	}
	w.Header().Set("X-Last-Sequence", itoa(p.Newest()))
	w.Header().Set("X-Sessions-Version", t.Version())
	s.render(w, "tail", timelineView{T: t, Page: p, Blocks: blocks(t, p.Events, after)})
}

// sessions is the session list of a timeline as an HTML fragment, for a
// live page whose X-Sessions-Version changed.
func (s *Server) sessions(w http.ResponseWriter, r *http.Request) {
	st := s.store()
	t, err := history.Load(s.ctx(r), st.db, r.PathValue("ws"), s.opts.Now(), st.cache)
	if err != nil {
		fail(w, err)
		return
	}
	w.Header().Set("X-Sessions-Version", t.Version())
	s.render(w, "sessions", t)
}

// blocks groups events by session, with a session header where the session
// changes. prev is the sequence just before the first event: a live
// fragment that continues the session on the page repeats no header.
func blocks(t history.Timeline, evs []ledger.Event, prev int64) []block {
	var out []block
	last := "\x00" // nothing shown yet
	if prev > 0 {
		last = ""
		if s, ok := t.SessionAt(prev); ok {
			last = s.RunID
		}
	}
	for _, e := range evs {
		s, ok := t.SessionAt(e.Sequence)
		run := ""
		if ok {
			run = s.RunID
		}
		if len(out) == 0 || run != last {
			b := block{WS: t.Workstream.ID}
			if ok && run != last {
				b.Session = &s
			}
			out, last = append(out, b), run
		}
		out[len(out)-1].Events = append(out[len(out)-1].Events, e)
	}
	return out
}

type sessionView struct {
	WS  ledger.Workstream
	Sum history.Summary
}

func (s *Server) session(w http.ResponseWriter, r *http.Request) {
	st := s.store()
	t, err := history.Load(s.ctx(r), st.db, r.PathValue("ws"), s.opts.Now(), st.cache)
	if err != nil {
		fail(w, err)
		return
	}
	sum, err := history.Summarize(s.ctx(r), st.db, t, r.PathValue("run"))
	if err != nil {
		fail(w, err)
		return
	}
	s.render(w, "session.html", sessionView{WS: t.Workstream, Sum: sum})
}

type hit struct {
	Event     ledger.Event
	Fragments []history.Fragment
}

type searchView struct {
	WS    ledger.Workstream
	Query string
	Hits  []hit
}

// search has the semantics of `ai-memory workstream-search`: same query,
// same ranking, same limit bounds.
func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	st := s.store()
	wsID := r.PathValue("ws")
	ws, err := st.db.Workstream(s.ctx(r), wsID)
	if err != nil {
		fail(w, err)
		return
	}
	v := searchView{WS: ws, Query: strings.TrimSpace(r.URL.Query().Get("q"))}
	if v.Query != "" {
		evs, err := st.db.Search(s.ctx(r), wsID, v.Query, int(queryInt(r, "limit", ledger.MaxSearchLimit)))
		if err != nil {
			fail(w, err)
			return
		}
		for _, e := range evs {
			v.Hits = append(v.Hits, hit{e, history.Highlight(e.Content, v.Query)})
		}
	}
	s.render(w, "search.html", v)
}
