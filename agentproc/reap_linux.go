//go:build linux

package agentproc

import "golang.org/x/sys/unix"

// waitExited blocks until the child has exited without reaping it (WNOWAIT): the zombie keeps
// its pid and process group reserved, so signals forwarded until now cannot hit a recycled pid.
func waitExited(pid int) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return
		}
	}
}
