package ledger

import (
	"strconv"

	"golang.org/x/sys/unix"
)

// processStartTime returns the process start time from sysctl
// kern.proc.pid as "<sec>.<usec>", or "" when unavailable.
func processStartTime(pid int) string {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || kp.Proc.P_pid != int32(pid) {
		return ""
	}
	t := kp.Proc.P_starttime
	return strconv.FormatInt(int64(t.Sec), 10) + "." + strconv.FormatInt(int64(t.Usec), 10)
}
