package parallel

import (
	"sync/atomic"
	"testing"
)

func TestEach(t *testing.T) {
	for _, n := range []int{0, 1, 31, 32, 33, 1000} {
		seen := make([]int32, n)
		var calls atomic.Int64
		Each(n, 16, func(i int) {
			atomic.AddInt32(&seen[i], 1)
			calls.Add(1)
		})
		if calls.Load() != int64(n) {
			t.Fatalf("n=%d: %d calls", n, calls.Load())
		}
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("n=%d: item %d called %d times", n, i, c)
			}
		}
	}
}
