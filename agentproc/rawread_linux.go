//go:build linux

package agentproc

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// readNonblock reads from a descriptor in O_NONBLOCK mode. It is a raw system call (no
// scheduler hand-off): such a read never sleeps, and the hand-off that the Go runtime's sysmon
// otherwise performs on each slow tty read (retake the P, wake another thread) cost about half
// of the relay's throughput in measurements.
func readNonblock(fd int, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, _, errno := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}
