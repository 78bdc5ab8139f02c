// Package watch tells the launcher when anything under a set of directory
// trees changed, so it can re-import a harness's native store from its saved
// cursor while the agent runs.
//
// fsnotify (inotify on Linux) is not recursive, so every directory is
// watched on its own. The package handles the traps measured in
// docs (tech-and-perf §5):
//
//   - a directory created after start is watched and then scanned, because
//     files created right after mkdir appear before any watch exists;
//   - roots that do not exist yet are reached by watching their nearest
//     existing ancestor and descending as the path appears;
//   - events coalesce and the kernel queue overflows, so a notification only
//     means "something changed, read from your offsets", and an overflow
//     triggers a full rescan;
//   - inotify limits (max_user_watches, max_user_instances) switch the
//     watcher to polling with one notice instead of failing the run.
//
// All mutable state is owned by one worker goroutine; the fsnotify reader
// goroutine only queues events, so it never blocks on slow work.
package watch

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Options tune a Watcher. Zero values select the defaults.
type Options struct {
	Debounce     time.Duration // window that coalesces changes into one notification; default 75ms
	PollInterval time.Duration // period of the polling fallback; default 1s
	ForcePoll    bool          // poll from the start instead of using fsnotify
	MaxDirs      int           // cap on watched (or polled) directories; default 10000
}

// Defaults applied by New.
const (
	DefaultDebounce     = 75 * time.Millisecond
	DefaultPollInterval = time.Second
	DefaultMaxDirs      = 10000
)

func (o Options) withDefaults() Options {
	if o.Debounce <= 0 {
		o.Debounce = DefaultDebounce
	}
	if o.PollInterval <= 0 {
		o.PollInterval = DefaultPollInterval
	}
	if o.MaxDirs <= 0 {
		o.MaxDirs = DefaultMaxDirs
	}
	return o
}

// Watcher reports coalesced changes under its roots. Create it with New and
// stop it with Close.
type Watcher struct {
	roots   []string
	opt     Options
	epoch   time.Time // reference for the test-visible notification clock
	changes chan struct{}
	notices chan string
	polling atomic.Bool

	queue  queue       // events and errors from the reader, for the worker
	dirty  atomic.Bool // a Write under a root arrived (set by the reader)
	wake   chan struct{}
	status chan chan state // worker state requests (tests and diagnostics)

	// Owned by the worker goroutine (and by New before it starts).
	fsw      *fsnotify.Watcher
	watched  map[string]bool
	snapshot map[string]fileState
	noticed  map[string]bool
	rescans  int

	addWatch   func(path string) error // fsnotify Add; replaced in tests
	drop       atomic.Bool             // test hook: discard events, as an overflow would
	dropped    atomic.Int64
	sent       atomic.Int64 // notifications sent
	lastSentNS atomic.Int64 // time of the last notification, ns since epoch

	done      chan struct{}
	closeOnce sync.Once
	closeErr  error
	wg        sync.WaitGroup
}

// New starts watching roots. A root that does not exist yet is picked up
// when it appears; New fails only for an empty or unusable root list. When
// fsnotify is unavailable or hits an inotify limit, the watcher polls and
// says so once on Notices.
func New(roots []string, opt Options) (*Watcher, error) {
	w, err := newWatcher(roots, opt)
	if err != nil {
		return nil, err
	}
	w.start()
	return w, nil
}

func newWatcher(roots []string, opt Options) (*Watcher, error) {
	if len(roots) == 0 {
		return nil, errors.New("watch: no directories to watch")
	}
	clean := make([]string, 0, len(roots))
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("watch %s: %w", r, err)
		}
		clean = append(clean, abs)
	}
	w := &Watcher{
		roots:   clean,
		opt:     opt.withDefaults(),
		epoch:   time.Now(),
		changes: make(chan struct{}, 1),
		notices: make(chan string, 16),
		wake:    make(chan struct{}, 1),
		status:  make(chan chan state),
		watched: map[string]bool{},
		noticed: map[string]bool{},
		done:    make(chan struct{}),
	}
	w.addWatch = func(p string) error { return w.fsw.Add(p) }
	return w, nil
}

// start sets up the initial watches (or the polling baseline) before
// returning, so a change made after New returns is never missed.
func (w *Watcher) start() {
	if w.opt.ForcePoll {
		w.startPolling()
	} else if fsw, err := fsnotify.NewWatcher(); err != nil {
		w.fallback(err)
	} else {
		w.fsw = fsw
		for _, r := range w.roots {
			w.attach(r)
		}
	}
	if w.fsw != nil {
		w.wg.Add(1)
		go w.readEvents(w.fsw)
	}
	w.wg.Add(1)
	go w.loop()
}

// Changes delivers one coalesced notification per debounce window after
// anything changed under a root. It is buffered (1): a pending notification
// covers every later change until it is received. Closed by Close.
func (w *Watcher) Changes() <-chan struct{} { return w.changes }

// Notices delivers one-line, user-readable notices (fallback to polling,
// directory cap reached, ...). Notices are dropped when nobody reads them.
// Closed by Close.
func (w *Watcher) Notices() <-chan string { return w.notices }

// Polling reports whether the watcher polls instead of using fsnotify.
func (w *Watcher) Polling() bool { return w.polling.Load() }

// Close stops the goroutines and releases the inotify instance. It is
// idempotent; Changes and Notices are closed when it returns.
func (w *Watcher) Close() error {
	w.closeOnce.Do(func() {
		close(w.done)
		w.wg.Wait()
		if w.fsw != nil {
			if err := w.fsw.Close(); err != nil {
				w.closeErr = fmt.Errorf("close file watcher: %w", err)
			}
		}
		close(w.changes)
		close(w.notices)
	})
	return w.closeErr
}

// notify sends a change notification without ever blocking.
func (w *Watcher) notify() {
	w.lastSentNS.Store(int64(time.Since(w.epoch)))
	w.sent.Add(1)
	select {
	case w.changes <- struct{}{}:
	default:
	}
}

// notice sends a one-line notice once per key, without blocking.
func (w *Watcher) notice(key, msg string) {
	if w.noticed[key] {
		return
	}
	w.noticed[key] = true
	select {
	case w.notices <- msg:
	default:
	}
}
