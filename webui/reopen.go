package webui

import (
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ai-memory/ai-memory/history"
	"github.com/ai-memory/ai-memory/ledger"
)

// store is the ledger the pages read and the sessions compiled from it.
// It is replaced as a whole when the ledger file is.
type store struct {
	db    ledger.Ledger
	cache *history.Cache
	file  os.FileInfo // the ledger file when db was opened; nil: unknown or none
}

// reopenCheck is how often a request may look whether the ledger file was
// replaced: one stat per second at most.
const reopenCheck = time.Second

// closeGrace is how long a replaced ledger stays open for the requests
// that are still reading it.
const closeGrace = time.Minute

// replacer swaps the store when `ledger rebuild` (or a restore) put a new
// ledger file in place of the one the server opened: the old descriptor
// would keep serving the old file forever.
type replacer struct {
	cur     atomic.Pointer[store]
	reopen  func() (ledger.Ledger, error) // nil: never reopen
	mu      sync.Mutex                    // one check at a time
	checked time.Time
	stat    func(string) (os.FileInfo, error)
}

// newStore records db with the identity of its file.
func newStore(db ledger.Ledger, stat func(string) (os.FileInfo, error)) *store {
	fi, _ := stat(ledgerFile(db))
	return &store{db: db, cache: history.NewCache(), file: fi}
}

// ledgerFile is the file db lives in; "" for a ledger that has none (a
// server ledger is never replaced under the server's feet this way).
func ledgerFile(db ledger.Ledger) string {
	if f, ok := db.(ledger.FileBacked); ok {
		return f.File()
	}
	return ""
}

// current returns the store to serve from, first reopening the ledger when
// its file was replaced (checked at most once per reopenCheck). A file that
// is missing (moved aside, not rebuilt yet) or a reopen that fails keeps
// the old store: it still reads the old file.
func (p *replacer) current(now time.Time) *store {
	st := p.cur.Load()
	if p.reopen == nil || !p.mu.TryLock() {
		return st
	}
	defer p.mu.Unlock()
	if now.Sub(p.checked) < reopenCheck {
		return st
	}
	p.checked = now
	fi, err := p.stat(ledgerFile(st.db))
	if err != nil || st.file == nil || os.SameFile(fi, st.file) {
		return st
	}
	db, err := p.reopen()
	if err != nil {
		return st
	}
	next := newStore(db, p.stat)
	p.cur.Store(next)
	old := st.db
	time.AfterFunc(closeGrace, func() { old.Close() })
	return next
}
