package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxAttachRounds bounds the descent towards a missing root when its path
// keeps appearing and disappearing under us.
const maxAttachRounds = 64

// attach makes sure root r is covered: when it exists, it and all its
// subdirectories are watched; otherwise its nearest existing ancestor is, so
// the next path component appearing produces an event. The ancestor is
// re-checked after the watch is added, closing the race with mkdir -p. It
// reports whether files were found under r.
func (w *Watcher) attach(r string) bool {
	for range maxAttachRounds {
		if w.polling.Load() {
			return false
		}
		a := nearestExisting(r)
		if a == r {
			return w.addTree(r)
		}
		if a == "" || !w.watchDir(a) || nearestExisting(r) == a {
			return false
		}
	}
	return false
}

// addTree watches dir and every directory below it. Each directory is
// watched before it is listed, so a file created at any moment is either
// listed here or reported by its watch. Only dir itself may be a symlink
// (a root may live behind one); below it symlinks are never followed, so a
// link loop cannot make the walk run away. It reports whether any
// non-directory entry was found.
func (w *Watcher) addTree(dir string) bool {
	if !w.watchDir(dir) {
		return false
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false // vanished or unreadable: its Remove event (if any) follows
	}
	found := false
	for _, e := range entries {
		if w.polling.Load() {
			return found
		}
		if !e.IsDir() {
			found = true
		} else if w.addTree(filepath.Join(dir, e.Name())) {
			found = true
		}
	}
	return found
}

// watchDir adds one watch. It returns false when the directory cannot be
// watched; an inotify limit switches the whole watcher to polling.
func (w *Watcher) watchDir(p string) bool {
	if w.watched[p] {
		return true
	}
	if len(w.watched) >= w.opt.MaxDirs {
		w.notice("cap", fmt.Sprintf("watching stopped at %d folders (the cap); later changes in other folders are imported when the run ends", w.opt.MaxDirs))
		return false
	}
	err := w.addWatch(p)
	switch {
	case err == nil:
		w.watched[p] = true
		return true
	case isLimit(err):
		w.fallback(err)
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotDir):
		// Removed between listing and watching: its Remove event follows.
	default:
		w.notice("add:"+p, fmt.Sprintf("cannot watch %s (%v); its changes are imported when the run ends", p, err))
	}
	return false
}

// forget drops p and everything below it from the watch set: the kernel
// removes the watch of a deleted or moved directory, so a directory created
// again at that path must be watched again.
func (w *Watcher) forget(p string) {
	for q := range w.watched {
		if within(p, q) {
			delete(w.watched, q)
		}
	}
}

// underRoot reports whether p is a root or inside one.
func (w *Watcher) underRoot(p string) bool {
	for _, r := range w.roots {
		if within(r, p) {
			return true
		}
	}
	return false
}

// aboveRoot reports whether p is a proper ancestor of a root.
func (w *Watcher) aboveRoot(p string) bool {
	for _, r := range w.roots {
		if p != r && within(p, r) {
			return true
		}
	}
	return false
}

// within reports whether p is dir or lies below it (both clean, absolute).
func within(dir, p string) bool {
	if p == dir {
		return true
	}
	if !strings.HasPrefix(p, dir) {
		return false
	}
	return strings.HasSuffix(dir, string(filepath.Separator)) || p[len(dir)] == filepath.Separator
}

// nearestExisting returns the deepest existing directory on the path of r
// (r itself when it exists), or "" when none does. Symlinks are followed
// here: a root or its ancestors may live behind one.
func nearestExisting(r string) string {
	for p := r; ; {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p
		}
		parent := filepath.Dir(p)
		if parent == p {
			return ""
		}
		p = parent
	}
}

// isRealDir reports whether p is a directory and not a symlink to one.
func isRealDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}
