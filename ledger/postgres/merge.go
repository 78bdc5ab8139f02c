package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The search index is a GIN index with PostgreSQL's "fast update": a new
// row's index entries go to a pending list, and the backend whose insert
// makes the list exceed gin_pending_list_limit (4 MB by default) merges the
// whole list into the index itself before its statement returns. In a
// bulk import that merge is half of the inserting backend's time (profiled:
// ginInsertCleanup 48 %), and it runs while the client waits.
//
// merger takes that merge off the inserting backend: once a handle has
// appended about mergeEvery bytes of index entries, it runs
// gin_clean_pending_list on a connection of its own while the next batches
// insert. An inserting backend that finds a merge in progress skips its own
// (PostgreSQL takes the merge's lock conditionally), and while the merger
// works the handle's transactions raise their pending-list limit
// (bulkPendingLimit), so they do not start merges between the merger's
// passes. Searches stay exact throughout: entries in the pending list are
// searched too. Measured on 2 cores, 300k events into 1,000 workstreams,
// the last merge at Close included: 6,470-6,794 -> 9,342 events/s
// (scripts/bench-pg.sh has the 1M figure).
//
// gin_clean_pending_list needs the index's owner. A role that does not own
// it (a team ledger whose schema another role created) is refused once and
// the handle falls back to PostgreSQL's default, which is still correct.
// Nothing here is needed for correctness: every error leaves the merge to
// the inserting backends, as before.
type merger struct {
	pool  *pgxpool.Pool
	every int           // mergeEvery; tests lower it
	drain time.Duration // closeDrain; tests lower it
	query string        // sqlMergePending; tests make it hang

	mu       sync.Mutex
	owed     int  // estimated pending-list bytes appended since the last pass was asked for
	dirty    bool // appended since the last pass started
	started  bool // the goroutine runs
	refused  bool // the server refused the merge: leave it to the inserting backends
	closed   bool
	kick     chan struct{}
	finished chan struct{}
	// stop cancels the merge in progress: close's bound on waiting for a
	// server that stopped answering.
	ctx  context.Context
	stop context.CancelFunc
}

const (
	// mergeEvery is how many bytes of index entries (estimated) a handle
	// appends between merges. Larger merges cost less per entry (more of a
	// key's postings go into the tree at once); measured at 300k events:
	// every 4 MB 8,370 events/s, 12 MB 8,715, 24 MB 9,342, 40 MB 9,128.
	mergeEvery = 24 << 20
	// bulkPendingLimit (kB) is the pending-list limit of a handle's
	// transactions while its merger works: above mergeEvery plus what one
	// merge's time adds, so the inserting backend leaves merging to the
	// merger. A search meanwhile also reads the pending list (up to this
	// size); once the import ends, Close merges what is left.
	bulkPendingLimit = 64 << 10
	// closeDrain bounds how long Close waits for the merges (a last merge
	// of bulkPendingLimit took ~3 s here); after it Close cancels them,
	// which leaves the entries to PostgreSQL's own merge, so a server that
	// stopped answering never holds up the end of a run for long.
	closeDrain = 30 * time.Second

	sqlMergePending = `SELECT gin_clean_pending_list('events_tsv'::regclass)`
	// codeInsufficientPrivilege is SQLSTATE 42501 (not the index's owner).
	codeInsufficientPrivilege = "42501"
)

var sqlBulkPendingLimit = fmt.Sprintf(`SET LOCAL gin_pending_list_limit = %d`, bulkPendingLimit)

func newMerger(pool *pgxpool.Pool) *merger {
	ctx, stop := context.WithCancel(context.Background())
	return &merger{pool: pool, every: mergeEvery, drain: closeDrain, query: sqlMergePending,
		kick: make(chan struct{}, 1), finished: make(chan struct{}), ctx: ctx, stop: stop}
}

// pendingBytes estimates the pending-list bytes of docs: one index tuple
// per distinct lexeme, its word plus ~24 bytes of header, item pointer and
// alignment.
func pendingBytes(docs []pgtype.TSVector) int {
	n := 0
	for _, d := range docs {
		for _, l := range d.Lexemes {
			n += len(l.Word) + 24
		}
	}
	return n
}

// added records n bytes of index entries a committed append created, and
// asks for a merge every mergeEvery bytes.
func (m *merger) added(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.refused || m.closed || n <= 0 {
		return
	}
	m.dirty = true
	if m.owed += n; m.owed < m.every {
		return
	}
	m.owed = 0
	if !m.started {
		m.started = true
		go m.loop()
	}
	select {
	case m.kick <- struct{}{}:
	default: // a merge is already asked for
	}
}

// bulk reports whether the merger works for this handle, so its
// transactions may let the pending list grow (bulkPendingLimit).
func (m *merger) bulk() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.started && !m.refused && !m.closed
}

func (m *merger) loop() {
	defer close(m.finished)
	for range m.kick {
		if !m.pass() {
			return
		}
	}
	// Closed: leave nothing pending that this handle added.
	m.mu.Lock()
	last := m.dirty && !m.refused
	m.mu.Unlock()
	if last {
		m.pass()
	}
}

// pass runs one merge; false when the server refused it for good.
func (m *merger) pass() bool {
	m.mu.Lock()
	m.dirty = false
	m.mu.Unlock()
	_, err := m.pool.Exec(m.ctx, m.query)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == codeInsufficientPrivilege {
		m.mu.Lock()
		m.refused = true
		m.mu.Unlock()
		return false
	}
	return true
}

// close stops the merger after a last merge of what this handle added
// since the previous one; it returns when that merge is done, or cancels
// it after closeDrain.
func (m *merger) close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	started := m.started
	if started {
		close(m.kick)
	}
	m.mu.Unlock()
	defer m.stop()
	if !started {
		return
	}
	t := time.NewTimer(m.drain)
	defer t.Stop()
	select {
	case <-m.finished:
	case <-t.C:
		m.stop()
		<-m.finished
	}
}
