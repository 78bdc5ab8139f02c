//go:build unix

package agentproc

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
)

// canceler wakes a goroutine blocked in waitFd: closing the write end of a pipe makes the
// read end permanently readable (a self-pipe). The flag lets busy loops notice without polling.
type canceler struct {
	r, w *os.File
	fd   int // read end, polled next to the real descriptor
	once sync.Once
	done atomic.Bool
}

func newCanceler() (*canceler, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("create cancel pipe: %w", err)
	}
	return &canceler{r: r, w: w, fd: int(r.Fd())}, nil
}

// newCancelerPair creates the two cancelers of a PTY relay (output and input).
func newCancelerPair() (*canceler, *canceler, error) {
	a, err := newCanceler()
	if err != nil {
		return nil, nil, err
	}
	b, err := newCanceler()
	if err != nil {
		a.close()
		return nil, nil, err
	}
	return a, b, nil
}

// cancel wakes the waiting goroutine; it may be called any number of times.
func (c *canceler) cancel() {
	c.once.Do(func() {
		c.done.Store(true)
		_ = c.w.Close()
	})
}

func (c *canceler) cancelled() bool { return c.done.Load() }

// close cancels and releases the pipe; call it only after the goroutine has returned.
func (c *canceler) close() {
	c.cancel()
	_ = c.r.Close()
}
