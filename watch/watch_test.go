package watch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// waitTimeout is generous on purpose: the machine is shared and noisy, and
// these tests check that something happens, never how fast.
const waitTimeout = 15 * time.Second

// modes runs a behaviour under fsnotify and under forced polling.
var modes = []struct {
	name string
	opt  Options
}{
	{"fsnotify", Options{Debounce: 10 * time.Millisecond}},
	{"polling", Options{Debounce: 10 * time.Millisecond, ForcePoll: true, PollInterval: 20 * time.Millisecond}},
}

// start creates a watcher, letting the test replace hooks before the
// initial watches are set up.
func start(t *testing.T, roots []string, opt Options, hook func(*Watcher)) *Watcher {
	t.Helper()
	w, err := newWatcher(roots, opt)
	if err != nil {
		t.Fatal(err)
	}
	if hook != nil {
		hook(w)
	}
	w.start()
	t.Cleanup(func() { w.Close() })
	return w
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", waitTimeout, what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// now returns the watcher's clock, comparable with lastSentNS.
func now(w *Watcher) int64 { return int64(time.Since(w.epoch)) }

// waitNotifiedAfter waits for a notification sent after moment t0: the
// launcher reads from offsets, so what matters is a change notification
// that follows the file operation.
func waitNotifiedAfter(t *testing.T, w *Watcher, t0 int64, what string) {
	t.Helper()
	waitFor(t, "a notification after "+what, func() bool { return w.lastSentNS.Load() > t0 })
}

func watchedSet(t *testing.T, w *Watcher) map[string]bool {
	t.Helper()
	s, ok := w.snapshotState()
	if !ok {
		t.Fatal("watcher closed")
	}
	set := map[string]bool{}
	for _, p := range s.watched {
		set[p] = true
	}
	return set
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestWatcher_AppendReportsChange(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			root := t.TempDir()
			file := filepath.Join(root, "session.jsonl")
			appendFile(t, file, "{}\n")
			w := start(t, []string{root}, m.opt, nil)
			if w.Polling() != m.opt.ForcePoll {
				t.Fatalf("Polling() = %v", w.Polling())
			}
			t0 := now(w)
			appendFile(t, file, "{\"more\":1}\n")
			waitNotifiedAfter(t, w, t0, "append")
			select {
			case <-w.Changes():
			case <-time.After(waitTimeout):
				t.Fatal("no value on Changes()")
			}
		})
	}
}

// TestWatcher_NewNestedDirectories reproduces the new-directory race:
// mkdir -p a/b/c then at once a file in c, 100 times.
func TestWatcher_NewNestedDirectories(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			root := t.TempDir()
			w := start(t, []string{root}, m.opt, nil)
			var deepest []string
			for i := range 100 {
				c := filepath.Join(root, fmt.Sprint(i), "a", "b", "c")
				if err := os.MkdirAll(c, 0o700); err != nil {
					t.Fatal(err)
				}
				appendFile(t, filepath.Join(c, "rollout.jsonl"), "{}\n")
				deepest = append(deepest, c)
			}
			waitNotifiedAfter(t, w, now(w), "the last file was created")
			if w.Polling() {
				return
			}
			// Every new directory must end up watched: without the rescan
			// of new directories, b and c (created before the watch on a
			// existed) would never be.
			waitFor(t, "all 401 directories watched", func() bool { return len(watchedSet(t, w)) == 401 })
			set := watchedSet(t, w)
			for _, c := range deepest {
				if !set[c] {
					t.Errorf("%s not watched", c)
				}
			}
		})
	}
}

func TestWatcher_RootCreatedAndRecreatedLater(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "sessions", "2026", "11", "30")
			w := start(t, []string{root}, m.opt, nil)
			for round := range 2 {
				file := filepath.Join(root, "rollout.jsonl")
				t0 := now(w)
				appendFile(t, file, "{}\n") // creates the whole missing path
				waitNotifiedAfter(t, w, t0, fmt.Sprintf("root created (round %d)", round))
				if !w.Polling() {
					waitFor(t, "root watched", func() bool { return watchedSet(t, w)[root] })
				}
				t1 := now(w)
				appendFile(t, file, "{\"n\":2}\n")
				waitNotifiedAfter(t, w, t1, "append in the new root")
				if err := os.RemoveAll(filepath.Join(base, "sessions")); err != nil {
					t.Fatal(err)
				}
				if !w.Polling() {
					waitFor(t, "removed root forgotten", func() bool { return !watchedSet(t, w)[root] })
				}
			}
		})
	}
}

// TestWatcher_SymlinkedRootAndLinkLoop: a root reached through a symlink
// is watched, and a symlink loop below it is not followed.
func TestWatcher_SymlinkedRootAndLinkLoop(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			base := t.TempDir()
			real := filepath.Join(base, "real")
			link := filepath.Join(base, "link")
			if err := os.MkdirAll(filepath.Join(real, "sub"), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(real, link); err != nil {
				t.Skipf("symlinks unavailable: %v", err)
			}
			if err := os.Symlink(real, filepath.Join(real, "sub", "loop")); err != nil {
				t.Fatal(err)
			}
			w := start(t, []string{link}, m.opt, nil)
			if !w.Polling() {
				if set := watchedSet(t, w); len(set) != 2 || !set[link] || !set[filepath.Join(link, "sub")] {
					t.Errorf("watched = %v, want the link root and its one real subdirectory", set)
				}
			}
			t0 := now(w)
			appendFile(t, filepath.Join(real, "sub", "new", "f.jsonl"), "{}\n")
			waitNotifiedAfter(t, w, t0, "a file created through the real path")
		})
	}
}

func TestWatcher_Coalesces(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			root := t.TempDir()
			m.opt.Debounce = 100 * time.Millisecond
			f, err := os.Create(filepath.Join(root, "s.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			w := start(t, []string{root}, m.opt, nil)
			const writes = 2000
			for range writes {
				if _, err := f.WriteString("{\"line\":1}\n"); err != nil {
					t.Fatal(err)
				}
			}
			waitNotifiedAfter(t, w, now(w), "the last write")
			n := w.sent.Load()
			t.Logf("%d writes -> %d notifications", writes, n)
			if n < 1 || n > writes/20 {
				t.Errorf("%d writes gave %d notifications, want between 1 and %d", writes, n, writes/20)
			}
		})
	}
}

// TestWatcher_OverflowRescans loses events on purpose (as a kernel queue
// overflow would), then injects ErrEventOverflow: the rescan must find and
// watch the missed directories and report a change.
func TestWatcher_OverflowRescans(t *testing.T) {
	root := t.TempDir()
	w := start(t, []string{root}, modes[0].opt, nil)
	w.drop.Store(true)
	deeper := filepath.Join(root, "missed", "deeper")
	if err := os.MkdirAll(deeper, 0o700); err != nil {
		t.Fatal(err)
	}
	appendFile(t, filepath.Join(deeper, "f.jsonl"), "{}\n")
	waitFor(t, "the Create event to be dropped", func() bool { return w.dropped.Load() >= 1 })
	w.drop.Store(false)
	if watchedSet(t, w)[deeper] {
		t.Fatal("test setup: the missed directory is already watched")
	}
	t0 := now(w)
	w.inject(fmt.Errorf("read events: %w", fsnotify.ErrEventOverflow))
	waitNotifiedAfter(t, w, t0, "overflow")
	s, _ := w.snapshotState()
	if s.rescans != 1 {
		t.Errorf("rescans = %d, want 1", s.rescans)
	}
	if set := watchedSet(t, w); !set[deeper] || !set[filepath.Join(root, "missed")] {
		t.Fatalf("after rescan watched = %v, want the missed dirs", set)
	}
	t1 := now(w)
	appendFile(t, filepath.Join(deeper, "f.jsonl"), "{}\n")
	waitNotifiedAfter(t, w, t1, "append in a rescanned directory")
}

func TestWatcher_OtherErrorNoticesAndRescans(t *testing.T) {
	root := t.TempDir()
	w := start(t, []string{root}, modes[0].opt, nil)
	w.inject(errors.New("short read"))
	select {
	case n := <-w.Notices():
		if n != "file watcher error (short read); rescanning the watched folders" {
			t.Errorf("notice = %q", n)
		}
	case <-time.After(waitTimeout):
		t.Fatal("no notice")
	}
	waitFor(t, "a rescan", func() bool { s, _ := w.snapshotState(); return s.rescans == 1 })
}

func TestWatcher_FallsBackToPollingOnLimits(t *testing.T) {
	tests := []struct {
		name   string
		failOn string // substring of the path whose watch fails
		err    error
		late   bool // fail only for a directory created after start
		notice string
	}{
		{"watches exhausted at start", "", syscall.ENOSPC, false,
			"file watching unavailable (inotify limit: raise fs.inotify.max_user_watches); polling every 20ms instead"},
		{"instances exhausted mid-run", "late", fmt.Errorf("add: %w", syscall.EMFILE), true,
			"file watching unavailable (inotify limit: raise fs.inotify.max_user_instances or close other watching programs); polling every 20ms instead"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			opt := Options{Debounce: 10 * time.Millisecond, PollInterval: 20 * time.Millisecond}
			w := start(t, []string{root}, opt, func(w *Watcher) {
				add := w.addWatch
				w.addWatch = func(p string) error {
					if strings.Contains(p, tc.failOn) {
						return tc.err
					}
					return add(p)
				}
			})
			if tc.late {
				if w.Polling() {
					t.Fatal("polling before any limit was hit")
				}
				appendFile(t, filepath.Join(root, "late", "x.jsonl"), "{}\n")
			}
			waitFor(t, "polling", w.Polling)
			select {
			case n := <-w.Notices():
				if n != tc.notice {
					t.Errorf("notice = %q\n     want %q", n, tc.notice)
				}
			case <-time.After(waitTimeout):
				t.Fatal("no notice")
			}
			t0 := now(w)
			appendFile(t, filepath.Join(root, "late", "y", "z.jsonl"), "{}\n")
			waitNotifiedAfter(t, w, t0, "a new file while polling")
		})
	}
}

func TestWatcher_MaxDirsCap(t *testing.T) {
	root := t.TempDir()
	for i := range 5 {
		if err := os.Mkdir(filepath.Join(root, fmt.Sprint(i)), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	w := start(t, []string{root}, Options{MaxDirs: 3}, nil)
	if n := len(watchedSet(t, w)); n != 3 {
		t.Errorf("watched %d directories, want the cap 3", n)
	}
	select {
	case n := <-w.Notices():
		if !strings.HasPrefix(n, "watching stopped at 3 folders") {
			t.Errorf("notice = %q", n)
		}
	default:
		t.Error("no cap notice")
	}
}

func TestWatcher_CloseIdempotentNoLeaks(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			w, err := New([]string{t.TempDir(), filepath.Join(t.TempDir(), "missing")}, m.opt)
			if err != nil {
				t.Fatal(err)
			}
			appendFile(t, filepath.Join(w.roots[0], "f"), "x")
			if err := w.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			if err := w.Close(); err != nil {
				t.Fatalf("second Close: %v", err)
			}
			for range w.Changes() { // must terminate: closed by Close
			}
			if _, ok := <-w.Notices(); ok {
				t.Error("Notices not closed")
			}
			waitFor(t, "goroutines to exit", func() bool { return runtime.NumGoroutine() <= before })
		})
	}
}

func TestNew_Errors(t *testing.T) {
	if _, err := New(nil, Options{}); err == nil || !strings.Contains(err.Error(), "no directories") {
		t.Errorf("New(nil) error = %v", err)
	}
}

func TestPathRelations(t *testing.T) {
	tests := []struct {
		dir, p string
		want   bool
	}{
		{"/a/b", "/a/b", true},
		{"/a/b", "/a/b/c", true},
		{"/a/b", "/a/bc", false},
		{"/a/b", "/a", false},
		{"/", "/x", true},
	}
	for _, tc := range tests {
		if got := within(tc.dir, tc.p); got != tc.want {
			t.Errorf("within(%q, %q) = %v, want %v", tc.dir, tc.p, got, tc.want)
		}
	}
	w := &Watcher{roots: []string{"/home/u/.codex/sessions/2026/11"}}
	for p, want := range map[string][2]bool{ // {underRoot, aboveRoot}
		"/home/u/.codex/sessions/2026/11/30": {true, false},
		"/home/u/.codex/sessions/2026/11":    {true, false},
		"/home/u/.codex/sessions/2026":       {false, true},
		"/home/u/.codex/sessions/2025":       {false, false},
	} {
		if got := [2]bool{w.underRoot(p), w.aboveRoot(p)}; got != want {
			t.Errorf("%s: under/above = %v, want %v", p, got, want)
		}
	}
}
