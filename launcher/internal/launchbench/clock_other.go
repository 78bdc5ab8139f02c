//go:build unix && !linux && !darwin

package main

import "time"

// monotonic falls back to the wall clock where CLOCK_MONOTONIC is not
// available through x/sys/unix.
func monotonic() time.Duration { return time.Duration(time.Now().UnixNano()) }
