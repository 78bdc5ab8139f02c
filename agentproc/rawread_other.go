//go:build unix && !linux

package agentproc

import "golang.org/x/sys/unix"

// readNonblock reads from a descriptor in O_NONBLOCK mode (a plain read elsewhere than Linux).
func readNonblock(fd int, b []byte) (int, error) { return unix.Read(fd, b) }
