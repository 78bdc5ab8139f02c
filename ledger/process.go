package ledger

import (
	"os"
	"strings"
)

// CurrentOwner identifies this process as a lease owner.
func CurrentOwner() Owner {
	pid := os.Getpid()
	return Owner{Host: hostname(), PID: pid, StartTime: processStartTime(pid)}
}

func hostname() string {
	if h, err := os.Hostname(); err == nil && strings.TrimSpace(h) != "" {
		return h
	}
	if h := strings.TrimSpace(os.Getenv("HOSTNAME")); h != "" {
		return h
	}
	return "localhost"
}

// ProcessAlive is how a backend checks a lease owner by default: the pid exists and, when a
// start time was recorded, the process with that pid started at the same
// time, so a recycled pid does not keep a dead launcher's lease alive. A
// recorded start time means this platform can read start times, so an
// unreadable one now means the process is gone or a zombie (exited, not
// reaped yet).
func ProcessAlive(o Owner) bool {
	if o.PID <= 0 || !pidExists(o.PID) {
		return false
	}
	return o.StartTime == "" || processStartTime(o.PID) == o.StartTime
}
