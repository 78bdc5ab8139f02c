package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// errNotDir is what inotify_add_watch reports for a path that stopped being
// a directory.
var errNotDir = syscall.ENOTDIR

// fileState is what polling compares between two walks.
type fileState struct {
	size  int64
	mtime int64
	mode  fs.FileMode
}

// isLimit reports whether err means an inotify limit was reached:
// ENOSPC = max_user_watches, EMFILE = max_user_instances (or the process fd
// limit), ENFILE = the system-wide file table.
func isLimit(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}

// limitHint names the setting to raise for a limit error.
func limitHint(err error) string {
	switch {
	case errors.Is(err, syscall.ENOSPC):
		return "inotify limit: raise fs.inotify.max_user_watches"
	case errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENFILE):
		return "inotify limit: raise fs.inotify.max_user_instances or close other watching programs"
	}
	return err.Error()
}

// fallback switches to polling after fsnotify failed, with one notice. It
// reports a change, since events may have been lost on the way.
func (w *Watcher) fallback(err error) {
	if w.polling.Load() {
		return
	}
	w.notice("fallback", fmt.Sprintf("file watching unavailable (%s); polling every %s instead", limitHint(err), w.opt.PollInterval))
	if w.fsw != nil {
		w.fsw.Close() // ends readEvents; the error is moot, we stop using it
		w.fsw = nil
	}
	w.watched = map[string]bool{}
	w.startPolling()
	w.markDirty()
}

// startPolling takes the baseline snapshot; the worker loop starts the
// ticker when it sees polling set.
func (w *Watcher) startPolling() {
	w.snapshot = w.scan()
	w.polling.Store(true)
	w.poke()
}

// poll walks the roots and reports a change when any file or directory
// appeared, disappeared, or changed size, mtime or type.
func (w *Watcher) poll() {
	snap := w.scan()
	if !sameSnapshot(w.snapshot, snap) {
		w.markDirty()
	}
	w.snapshot = snap
}

// scan records the state of everything under the roots, visiting at most
// MaxDirs directories. Like addTree it follows a symlinked root but no
// symlink below it.
func (w *Watcher) scan() map[string]fileState {
	snap := map[string]fileState{}
	budget := w.opt.MaxDirs
	for _, r := range w.roots {
		if fi, err := os.Stat(r); err == nil && fi.IsDir() {
			w.scanDir(r, snap, &budget)
		}
	}
	return snap
}

// scanDir records dir's entries and recurses into its subdirectories while
// the directory budget lasts.
func (w *Watcher) scanDir(dir string, snap map[string]fileState, budget *int) {
	if *budget <= 0 {
		w.notice("cap", fmt.Sprintf("polling stopped at %d folders (the cap); later changes in other folders are imported when the run ends", w.opt.MaxDirs))
		return
	}
	*budget--
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		info, err := e.Info()
		if err != nil {
			continue // removed since the listing
		}
		snap[p] = fileState{size: info.Size(), mtime: info.ModTime().UnixNano(), mode: info.Mode()}
		if e.IsDir() {
			w.scanDir(p, snap, budget)
		}
	}
}

func sameSnapshot(a, b map[string]fileState) bool {
	if len(a) != len(b) {
		return false
	}
	for p, s := range a {
		if t, ok := b[p]; !ok || t != s {
			return false
		}
	}
	return true
}
