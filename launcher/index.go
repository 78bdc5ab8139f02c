package launcher

import (
	"context"
	"fmt"

	"github.com/ai-memory/ai-memory/sessionindex"
)

// indexer keeps the project's .agent-sessions/session-history.json true for
// this run. Index failures never fail the launch: they are reported once
// and the index is left alone for the rest of the run.
type indexer struct {
	l        *launch
	store    *sessionindex.Store
	recordID string
	native   string
	held     bool     // the agent owns the terminal: hold messages
	pending  []string // messages held until the agent exited
}

func newIndexer(l *launch) *indexer {
	ix := &indexer{l: l}
	if l.o.NoSessionIndex || sessionindex.DisabledByEnv(l.env.Getenv) || !sessionindex.Enabled(l.id.Root) {
		return ix
	}
	db := l.db
	ix.store = &sessionindex.Store{
		Root: l.id.Root,
		Now:  l.env.Now,
		Warn: l.env.Stderr,
		Alive: func(runtime, nativeID string) bool {
			live, err := db.LiveRunForSession(context.Background(), runtime, nativeID)
			return err != nil || live // unknown counts as alive: never mark on doubt
		},
	}
	return ix
}

func (ix *indexer) fail(err error) {
	ix.say(fmt.Sprintf("session index not updated: %v", err))
	ix.store = nil
}

// say prints now, or holds the line while the agent owns the terminal
// (it may be raw); flush prints what was held.
func (ix *indexer) say(msg string) {
	if ix.held {
		ix.pending = append(ix.pending, msg)
		return
	}
	say(ix.l.env.Stderr, "%s", msg)
}

func (ix *indexer) hold() { ix.held = true }

func (ix *indexer) flush() {
	ix.held = false
	for _, m := range ix.pending {
		say(ix.l.env.Stderr, "%s", m)
	}
	ix.pending = nil
}

func (ix *indexer) start(nativeID string) {
	if ix.store == nil {
		return
	}
	if nativeID == "" {
		nativeID = "pending"
	}
	res, err := ix.store.Start(sessionindex.StartOptions{Runtime: ix.l.h.Name, NativeID: nativeID, Status: "active"})
	if err != nil {
		ix.fail(err)
		return
	}
	ix.recordID, ix.native = res.Session.ID, nativeID
	for _, r := range res.Interrupted {
		ix.say(fmt.Sprintf("session index: marked %s (%s) interrupted", r.ID, r.Runtime))
	}
}

// bind replaces a pending native id once the session appeared.
func (ix *indexer) bind(nativeID string) {
	if ix.store == nil || ix.recordID == "" || nativeID == "" || ix.native == nativeID {
		return
	}
	if ix.native != "pending" {
		// The run moved to another session (orphan repoint): start a record for it.
		ix.start(nativeID)
		return
	}
	if _, err := ix.store.Bind(ix.recordID, nativeID); err != nil {
		ix.fail(err)
		return
	}
	ix.native = nativeID
}

func (ix *indexer) end(nativeID string) {
	if ix.store == nil || ix.recordID == "" {
		return
	}
	ix.bind(nativeID)
	if _, err := ix.store.End(ix.l.h.Name, ix.native); err != nil {
		ix.fail(err)
	}
}

func (ix *indexer) interrupted(nativeID string) {
	if ix.store == nil || ix.recordID == "" {
		return
	}
	ix.bind(nativeID)
	if _, err := ix.store.Interrupt(ix.recordID); err != nil {
		ix.fail(err)
	}
}

// markInterrupted closes the record of a run whose launcher died.
func (ix *indexer) markInterrupted(runtime, nativeID string) {
	if ix.store == nil || nativeID == "" {
		return
	}
	if _, _, err := ix.store.MarkInterrupted(runtime, nativeID); err != nil {
		ix.fail(err)
	}
}
