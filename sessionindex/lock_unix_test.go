//go:build unix

package sessionindex

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A writer in another language holding the sidecar flock blocks us; we
// give up after LockTimeout with ErrLocked instead of writing anyway.
func TestLockHeldByAnotherWriter(t *testing.T) {
	s, _, _ := newStore(t)
	s.LockTimeout = 20 * time.Millisecond
	if err := os.MkdirAll(filepath.Dir(Path(s.Root)), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(lockPath(s.Root), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Start(StartOptions{Runtime: "codex"}); !errors.Is(err, ErrLocked) {
		t.Fatalf("err = %v, want ErrLocked", err)
	}
	if _, err := os.Stat(Path(s.Root)); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("wrote without the lock")
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_UN); err != nil {
		t.Fatal(err)
	}
	mustStart(t, s, StartOptions{Runtime: "codex"})
}
