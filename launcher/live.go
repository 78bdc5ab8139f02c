package launcher

import (
	"context"
	"sync"
	"time"

	"github.com/ai-memory/ai-memory/transcript"
	"github.com/ai-memory/ai-memory/watch"
)

// liveImport watches the harness's store while the agent runs, binds the
// native session as soon as it appears and imports new records from the
// saved cursor. Everything it writes is also what the final import would
// write, so it only makes the ledger current sooner; after a kill -9 of the
// launcher the next run imports what is left.
type liveImport struct {
	l       *launch
	cancel  context.CancelFunc
	done    chan struct{}
	mu      sync.Mutex
	sess    transcript.Session
	found   bool
	notices []string
}

func startLive(ctx context.Context, l *launch) *liveImport {
	ctx, cancel := context.WithCancel(ctx)
	li := &liveImport{l: l, cancel: cancel, done: make(chan struct{})}
	roots := l.src.WatchRoots(l.env.transcriptEnv(), l.id.Root)
	w, err := watch.New(roots, watch.Options{})
	if err != nil {
		li.notices = append(li.notices, "live import disabled ("+err.Error()+"); the transcript is imported when the agent exits")
		close(li.done)
		return li
	}
	go li.loop(ctx, w)
	return li
}

func (li *liveImport) loop(ctx context.Context, w *watch.Watcher) {
	defer close(li.done)
	defer w.Close()
	li.step(ctx)
	for {
		select {
		case <-ctx.Done():
			return
		case n := <-w.Notices():
			li.mu.Lock()
			li.notices = append(li.notices, n)
			li.mu.Unlock()
		case <-w.Changes():
			li.step(ctx)
		}
	}
}

// step binds the session if it just appeared and imports what is new.
// Errors are left for the final import, which retries from the cursor.
func (li *liveImport) step(ctx context.Context) {
	li.mu.Lock()
	sess, found := li.sess, li.found
	li.mu.Unlock()
	if !found {
		s, ok := li.l.resolveSession()
		if !ok {
			return
		}
		li.l.bindSession(ctx, s)
		li.mu.Lock()
		li.sess, li.found, sess = s, true, s
		li.mu.Unlock()
	}
	st, _ := li.l.importer().Import(ctx, li.l.src, sess)
	li.l.saved.Add(int64(st.Added))
	li.l.noteLosses(st.LossNotes)
}

// stop ends live importing and returns the session it bound, if any.
func (li *liveImport) stop() (transcript.Session, bool, []string) {
	li.cancel()
	<-li.done
	li.mu.Lock()
	defer li.mu.Unlock()
	return li.sess, li.found, li.notices
}

// resolveSession finds the native session of this run: the id the plan
// knew before spawn, else the newest checkout session written since the
// run started (Codex reveals its id only by creating the file). A session
// that was already there at spawn counts only once it changed: the store's
// time slack would otherwise hand a fresh run the session a previous run
// wrote a moment before (seen with Kimi: a --fresh run right after a resume
// was linked to the resumed session and its own was never imported).
func (l *launch) resolveSession() (transcript.Session, bool) {
	tenv := l.env.transcriptEnv()
	if id := l.plan.SessionID; id != "" {
		s, ex, _ := l.src.Find(tenv, id)
		return s, ex == transcript.Present
	}
	cands, _ := l.src.CreatedSince(tenv, l.id.Root, l.started) // an error still returns the readable ones
	for _, c := range cands {
		if pre, ok := l.before[c.ID]; ok && l.src.Settled(pre, c) {
			continue // untouched since spawn: not this run's
		}
		return c, true
	}
	return transcript.Session{}, false
}

// recentSessions snapshots the checkout's sessions that CreatedSince would
// offer this run, keyed by id.
func (l *launch) recentSessions() map[string]transcript.Session {
	cands, _ := l.src.CreatedSince(l.env.transcriptEnv(), l.id.Root, l.started)
	out := make(map[string]transcript.Session, len(cands))
	for _, c := range cands {
		out[c.ID] = c
	}
	return out
}

// Transcript settling after the agent exited: poll until two observations
// agree, at most settlePolls times. Agents flush on exit, so two polls
// (~50 ms) are the usual cost; a slow flush gets up to 2 s. A session that
// is absent after exit is waited for only when its source says the store
// can still be written once the agent is gone (transcript.Source.
// WrittenAfterExit): an agent that wrote nothing costs one look, not 2 s.
const (
	settlePolls    = 40
	settleInterval = 50 * time.Millisecond
)

// settleSession waits (bounded) for the transcript to stop changing after
// the agent exited.
func (l *launch) settleSession(known transcript.Session, found bool) (transcript.Session, bool) {
	var last transcript.Session
	seen := false
	for i := 0; i < settlePolls; i++ {
		s, ok := l.observe(known, found)
		if ok && seen && l.src.Settled(last, s) {
			return s, true
		}
		if !ok && !seen && !l.src.WrittenAfterExit() {
			return transcript.Session{}, false // nothing can appear any more
		}
		if ok {
			last, known, found, seen = s, s, true, true
		}
		time.Sleep(settleInterval)
	}
	return last, seen
}

// observe is the session's current state: a known session is refreshed by
// its source (no store scan; kept as last seen when that fails, for the
// import to report); otherwise the store is searched.
func (l *launch) observe(known transcript.Session, found bool) (transcript.Session, bool) {
	if !found || known.Path == "" {
		return l.resolveSession()
	}
	if s, ok := l.src.Refresh(known); ok {
		return s, true
	}
	return known, true
}
