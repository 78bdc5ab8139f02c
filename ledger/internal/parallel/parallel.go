// Package parallel spreads a batch's independent per-item work over the
// cores (redacting and hashing events, packing their text).
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls f(i) for every i in [0, n) and returns when all calls have.
// With at least minPer items per worker it runs them on up to GOMAXPROCS
// goroutines that take the next index in turn, so uneven items balance;
// a smaller batch runs on the caller's goroutine. f must only write what
// belongs to its i.
func Each(n, minPer int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n/max(minPer, 1))
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		})
	}
	wg.Wait()
}
