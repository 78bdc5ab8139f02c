//go:build unix

package sessionindex

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// lock takes an exclusive flock(2) on the sidecar lock file, the protocol
// any other writer of the index can follow (Python: fcntl.flock). flock
// locks belong to the open file description, so goroutines of one process
// exclude each other too. The wait is bounded by LockTimeout.
func (s *Store) lock() (unlock func(), err error) {
	path := lockPath(s.Root)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, fileMode)
	if err != nil {
		return nil, fmt.Errorf("open session index lock: %w", err)
	}
	if err := waitFlock(f, s.lockTimeout()); err != nil {
		f.Close()
		return nil, fmt.Errorf("session index lock %s: %w", path, err)
	}
	return func() {
		_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
		f.Close()
	}, nil
}

// ErrLocked is returned when another process holds the lock for longer
// than the store's LockTimeout.
var ErrLocked = errors.New("held by another process for too long; retry, or remove the lock holder")

func waitFlock(f *os.File, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	pause := 2 * time.Millisecond
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			return err
		}
		if time.Now().After(deadline) {
			return ErrLocked
		}
		time.Sleep(pause)
		pause = min(pause*2, 50*time.Millisecond)
	}
}
