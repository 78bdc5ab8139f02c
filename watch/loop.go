package watch

import (
	"errors"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// item is one unit of work for the worker: an event or a watcher error.
type item struct {
	ev  fsnotify.Event
	err error
}

// queue is an unbounded FIFO between the reader and the worker, so the
// reader never blocks however slow a rescan is.
type queue struct {
	mu    sync.Mutex
	items []item
}

func (q *queue) push(it item) {
	q.mu.Lock()
	q.items = append(q.items, it)
	q.mu.Unlock()
}

func (q *queue) take() []item {
	q.mu.Lock()
	defer q.mu.Unlock()
	items := q.items
	q.items = nil
	return items
}

// poke wakes the worker without blocking.
func (w *Watcher) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// readEvents moves fsnotify events and errors to the worker. It does no
// I/O: Writes only set the dirty flag; Create/Remove/Rename relevant to a
// root are queued; errors (including ErrEventOverflow) are queued too, so
// Errors is always drained.
func (w *Watcher) readEvents(fsw *fsnotify.Watcher) {
	defer w.wg.Done()
	for {
		select {
		case <-w.done:
			return
		case ev, ok := <-fsw.Events:
			if !ok {
				return
			}
			w.route(ev)
		case err, ok := <-fsw.Errors:
			if !ok {
				return
			}
			w.inject(err)
		}
	}
}

// route classifies one event cheaply (string comparisons only).
func (w *Watcher) route(ev fsnotify.Event) {
	if w.drop.Load() {
		w.dropped.Add(1)
		return
	}
	switch {
	case ev.Has(fsnotify.Create) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename):
		if !w.underRoot(ev.Name) && !w.aboveRoot(ev.Name) {
			return
		}
		w.queue.push(item{ev: ev})
	case ev.Has(fsnotify.Write):
		if !w.underRoot(ev.Name) {
			return
		}
		w.dirty.Store(true)
	default: // Chmod alone: not a content change.
		return
	}
	w.poke()
}

// inject hands a watcher error to the worker. Tests use it to simulate a
// kernel queue overflow.
func (w *Watcher) inject(err error) {
	w.queue.push(item{err: err})
	w.poke()
}

// loop is the worker: it owns the watch set, handles queued events, polls
// when in polling mode and runs the debounce timer.
func (w *Watcher) loop() {
	defer w.wg.Done()
	debounce := time.NewTimer(time.Hour)
	debounce.Stop()
	defer debounce.Stop()
	armed := false
	var ticker *time.Ticker
	defer func() {
		if ticker != nil {
			ticker.Stop()
		}
	}()
	for {
		if ticker == nil && w.polling.Load() {
			ticker = time.NewTicker(w.opt.PollInterval)
		}
		select {
		case <-w.done:
			return
		case <-w.wake:
			w.process()
		case <-tickC(ticker):
			w.poll()
		case <-debounce.C:
			armed = false
			w.notify()
		case reply := <-w.status:
			reply <- w.state()
		}
		if w.dirty.Swap(false) && !armed {
			debounce.Reset(w.opt.Debounce)
			armed = true
		}
	}
}

func tickC(t *time.Ticker) <-chan time.Time {
	if t == nil {
		return nil
	}
	return t.C
}

// markDirty records a change; the worker loop arms the debounce timer.
func (w *Watcher) markDirty() { w.dirty.Store(true) }

// process handles everything queued since the last wake-up.
func (w *Watcher) process() {
	for _, it := range w.queue.take() {
		if w.polling.Load() {
			return // the poller sees everything; queued events are moot
		}
		if it.err != nil {
			w.handleError(it.err)
			continue
		}
		w.handleEvent(it.ev)
	}
}

// handleError rescans everything: after an overflow events were lost, and
// after any other read error the watch set can no longer be trusted.
func (w *Watcher) handleError(err error) {
	if !errors.Is(err, fsnotify.ErrEventOverflow) {
		w.notice("error:"+err.Error(), "file watcher error ("+err.Error()+"); rescanning the watched folders")
	}
	w.rescan()
}

// rescan re-adds every watch from scratch (a directory may have been
// replaced while events were lost) and reports a change.
func (w *Watcher) rescan() {
	w.rescans++
	w.watched = map[string]bool{}
	for _, r := range w.roots {
		w.attach(r)
	}
	w.markDirty()
}

// handleEvent reacts to Create, Remove and Rename of paths at or above a
// root; Writes never reach the queue.
func (w *Watcher) handleEvent(ev fsnotify.Event) {
	p := ev.Name
	if ev.Has(fsnotify.Create) {
		w.onCreate(p)
		return
	}
	w.forget(p)
	if w.underRoot(p) {
		w.markDirty()
	}
	for _, r := range w.roots {
		if within(r, p) {
			w.attach(r) // the root or an ancestor went away: watch what is left
		}
	}
}

// onCreate watches and scans a new directory under a root, or descends
// towards a root that did not exist yet (a root itself may be a symlink).
func (w *Watcher) onCreate(p string) {
	if w.underRoot(p) {
		w.markDirty()
	}
	isRoot := false
	for _, r := range w.roots {
		if within(p, r) { // p is r or an ancestor of r
			isRoot = isRoot || p == r
			if w.attach(r) {
				w.markDirty()
			}
		}
	}
	if !isRoot && w.underRoot(p) && isRealDir(p) && w.addTree(p) {
		w.markDirty()
	}
}
