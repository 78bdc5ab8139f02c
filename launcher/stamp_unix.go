//go:build unix

package launcher

import (
	"fmt"
	"os"
	"syscall"
)

// fileStamp identifies the file at path (device and inode): a directory
// deleted and created again at the same path gets another.
func fileStamp(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	}
	return ""
}
