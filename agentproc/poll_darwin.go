//go:build darwin

package agentproc

import "golang.org/x/sys/unix"

// fdSetSize is FD_SETSIZE; select(2) cannot watch descriptors at or above it.
const fdSetSize = 1024

// waitFd blocks until fd is readable (or writable when write is set) and reports true; it
// reports false once cancelFd becomes readable (cancellation wins a tie). macOS uses select(2)
// because its poll(2) has historically not supported terminal devices.
func waitFd(fd int, write bool, cancelFd int) bool {
	if fd >= fdSetSize || cancelFd >= fdSetSize {
		return false
	}
	for {
		var r, w unix.FdSet
		if write {
			w.Set(fd)
		} else {
			r.Set(fd)
		}
		r.Set(cancelFd)
		_, err := unix.Select(max(fd, cancelFd)+1, &r, &w, nil, nil)
		if err == unix.EINTR {
			continue
		}
		return err == nil && !r.IsSet(cancelFd)
	}
}
