//go:build unix && !darwin

package agentproc

import "golang.org/x/sys/unix"

// waitFd blocks until fd is readable (or writable when write is set), or has hung up, and
// reports true; it reports false once cancelFd becomes readable. Cancellation wins a tie, so a
// cancelled stdin reader never consumes a pending keystroke.
func waitFd(fd int, write bool, cancelFd int) bool {
	ev := int16(unix.POLLIN)
	if write {
		ev = unix.POLLOUT
	}
	fds := []unix.PollFd{{Fd: int32(fd), Events: ev}, {Fd: int32(cancelFd), Events: unix.POLLIN}}
	for {
		_, err := unix.Poll(fds, -1)
		if err == unix.EINTR {
			continue
		}
		return err == nil && fds[1].Revents == 0
	}
}
