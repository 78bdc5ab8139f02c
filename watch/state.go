package watch

import "sort"

// state is a consistent view of the worker's bookkeeping, for tests and
// diagnostics.
type state struct {
	watched []string
	rescans int
}

func (w *Watcher) state() state {
	s := state{rescans: w.rescans}
	for p := range w.watched {
		s.watched = append(s.watched, p)
	}
	sort.Strings(s.watched)
	return s
}

// snapshotState asks the worker for its state; ok is false after Close.
func (w *Watcher) snapshotState() (state, bool) {
	reply := make(chan state, 1)
	select {
	case w.status <- reply:
		return <-reply, true
	case <-w.done:
		return state{}, false
	}
}
