//go:build unix

package transcript

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// One rule for symlinks in a store, applied by List, CreatedSince and Find:
// a symlinked directory (a Claude project folder, a Codex day folder moved
// to another disk) is followed; a transcript file that is a symlink (or any
// non-regular file) is never read.
func TestSymlinkRule(t *testing.T) {
	s := newStore(t)
	claudeRoot := filepath.Join(s.home, ".claude")
	// The checkout's Claude project folder lives elsewhere, linked in.
	moved := filepath.Join(s.home, "moved-project")
	real := s.claudeSession(t, moved, "linked-dir", s.repo, time.Minute)
	if err := os.Rename(filepath.Dir(real), moved); err != nil {
		t.Fatal(err)
	}
	mustSymlink(t, moved, ClaudeProjectDir(claudeRoot, s.repo))
	// A transcript-named symlink to a file outside the store.
	secret := filepath.Join(s.home, "secret.jsonl")
	writeFile(t, secret, `{"type":"user","uuid":"s","cwd":"`+s.repo+`","message":{"role":"user","content":"secret"}}`+"\n")
	mustSymlink(t, secret, filepath.Join(moved, "file-link.jsonl"))
	// Codex: a day directory that is a symlink, and a rollout that is one.
	today := time.Now().Format("2006/01/02")
	day := s.codexSession(t, today, "x-linked-day", s.repo, time.Minute)
	movedDay := filepath.Join(s.home, "moved-day")
	if err := os.Rename(filepath.Dir(day), movedDay); err != nil {
		t.Fatal(err)
	}
	mustSymlink(t, movedDay, filepath.Join(s.home, ".codex", "sessions", filepath.FromSlash(today)))
	mustSymlink(t, s.codexSession(t, "elsewhere/x", "x-target", s.repo, 0),
		filepath.Join(movedDay, "rollout-x-file-link.jsonl"))

	tests := []struct {
		harness, id string
		list        []string
		find        Existence
	}{
		{"claude", "linked-dir", []string{"linked-dir"}, Present},
		{"claude", "file-link", nil, Unknown},
		{"codex", "x-linked-day", []string{"x-linked-day"}, Present},
		{"codex", "x-file-link", nil, Absent},
	}
	for _, tt := range tests {
		src, _ := sourceFor(tt.harness)
		got, err := src.List(s.env, s.repo, 0)
		if err != nil {
			t.Errorf("%s List: %v", tt.harness, err)
		}
		if tt.list != nil && !reflect.DeepEqual(ids(got), tt.list) {
			t.Errorf("%s List = %v, want %v", tt.harness, ids(got), tt.list)
		}
		if tt.list != nil {
			since, _ := src.CreatedSince(s.env, s.repo, time.Now().Add(-time.Hour))
			if !reflect.DeepEqual(ids(since), tt.list) {
				t.Errorf("%s CreatedSince = %v, want %v", tt.harness, ids(since), tt.list)
			}
		}
		_, ex, err := src.Find(s.env, tt.id)
		if ex != tt.find {
			t.Errorf("%s Find(%s) = %v (%v), want %v", tt.harness, tt.id, ex, err, tt.find)
		}
		if ex == Unknown && (err == nil || strings.Count(err.Error(), "find ") != 1 || !strings.Contains(err.Error(), "not a regular file")) {
			t.Errorf("%s Find(%s) error %q: want one 'not a regular file' line", tt.harness, tt.id, err)
		}
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// A transcript this user cannot read is not silently dropped: List returns
// the readable sessions and an ErrUnreadable error that names the file.
func TestListReportsUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file; run as a normal user")
	}
	s := newStore(t)
	s.claudeSession(t, s.repo, "ok", s.repo, time.Minute)
	bad := s.claudeSession(t, s.repo, "locked", s.repo, 0)
	s.codexSession(t, today, "x-ok", s.repo, time.Minute)
	badx := s.codexSession(t, today, "x-locked", s.repo, 0)
	for _, p := range []string{bad, badx} {
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct{ harness, want, path string }{{"claude", "ok", bad}, {"codex", "x-ok", badx}} {
		src, _ := sourceFor(tt.harness)
		got, err := src.List(s.env, s.repo, 0)
		if !reflect.DeepEqual(ids(got), []string{tt.want}) {
			t.Errorf("%s List = %v, want [%s]", tt.harness, ids(got), tt.want)
		}
		if !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), tt.path) || !strings.Contains(err.Error(), "1 "+tt.harness+" transcript(s) could not be read") {
			t.Errorf("%s List error = %v", tt.harness, err)
		}
	}
}
