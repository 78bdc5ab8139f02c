//go:build !unix

package main

import "time"

// cpuTime is not measured on this platform.
func cpuTime() time.Duration { return 0 }

// ioBytes is not measured on this platform.
func ioBytes() (read, written int64) { return 0, 0 }
