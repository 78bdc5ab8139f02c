//go:build unix

package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cpuTime is the process's user plus system CPU time so far, so a chunk's
// wall time can be told apart from its CPU time (wall above CPU is waiting:
// I/O, fsync, or other processes on the cores).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ioBytes is what the process has written with write calls (wchar: WAL,
// database and segment writes) and read with read calls (rchar), from
// /proc/self/io; zero where that file does not exist. Unlike a time these
// counters do not depend on the machine's load, so they show write
// amplification directly.
func ioBytes() (read, written int64) {
	f, err := os.Open("/proc/self/io")
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ": ")
		n, _ := strconv.ParseInt(v, 10, 64)
		switch k {
		case "rchar":
			read = n
		case "wchar":
			written = n
		}
	}
	return read, written
}
