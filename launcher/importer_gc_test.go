package launcher

import (
	"os"
	"runtime/debug"
	"testing"
)

// gcSettings reads the current GC percent and memory limit.
func gcSettings() (int, int64) {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p, debug.SetMemoryLimit(-1)
}

func TestBulkGC(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC/GOMEMLIMIT set: bulkGC leaves the user's settings alone")
	}
	p0, l0 := gcSettings()
	tests := []struct {
		name    string
		unread  []int64 // nested imports, outermost first
		percent int
		limit   int64
	}{
		{"small import keeps the defaults", []int64{bulkImportBytes - 1}, p0, l0},
		{"bulk import tunes", []int64{bulkImportBytes}, bulkGCPercent, bulkMemoryLimit},
		{"nested imports share", []int64{200 << 20, 300 << 20}, bulkGCPercent, bulkMemoryLimit},
	}
	for _, tt := range tests {
		var restores []func()
		for _, n := range tt.unread {
			restores = append(restores, bulkGC(n))
		}
		if p, l := gcSettings(); p != tt.percent || l != tt.limit {
			t.Errorf("%s: during import GC %d limit %d, want %d %d", tt.name, p, l, tt.percent, tt.limit)
		}
		for i := len(restores) - 1; i >= 0; i-- {
			restores[i]()
			if p, _ := gcSettings(); i > 0 && p != tt.percent {
				t.Errorf("%s: an inner import restored the GC while the outer one runs", tt.name)
			}
		}
		if p, l := gcSettings(); p != p0 || l != l0 {
			t.Errorf("%s: after import GC %d limit %d, want %d %d restored", tt.name, p, l, p0, l0)
		}
	}
}
