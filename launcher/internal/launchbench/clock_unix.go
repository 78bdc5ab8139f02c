//go:build linux || darwin

package main

import (
	"time"

	"golang.org/x/sys/unix"
)

// monotonic reads CLOCK_MONOTONIC, which every process on the machine
// shares, so the driver and the fake agent can compare their readings.
func monotonic() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		panic("clock_gettime(CLOCK_MONOTONIC): " + err.Error())
	}
	return time.Duration(ts.Nano())
}
