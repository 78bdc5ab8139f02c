//go:build !unix

package sessionindex

import (
	"errors"
	"sync"
)

// ErrLocked is returned when the lock cannot be taken in time. Without
// flock(2) only writers inside this process are serialised; the
// compare-and-retry in [Store.update] still protects other writers' records.
var ErrLocked = errors.New("held for too long; retry")

var processLock sync.Mutex

func (s *Store) lock() (unlock func(), err error) {
	processLock.Lock()
	return processLock.Unlock, nil
}
