//go:build unix

package ledger

import (
	"errors"
	"syscall"
)

// pidExists sends signal 0: ESRCH means gone, EPERM means it exists but
// belongs to someone else.
func pidExists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
