package ledger

import (
	"os"
	"strconv"
	"strings"
)

// processStartTime returns field 22 of /proc/<pid>/stat (start time in clock
// ticks since boot), or "" when unreadable or when the process is a zombie
// (a zombie has exited; only its parent has not reaped it yet).
func processStartTime(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	return parseStatStartTime(string(b))
}

// parseStatStartTime parses a /proc/<pid>/stat line. The command name
// (field 2) may contain spaces and parentheses, so fields are counted from
// the last ')'.
func parseStatStartTime(stat string) string {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(stat[i+1:]) // f[0] is field 3 (state)
	if len(f) < 20 || f[0] == "Z" || f[0] == "X" {
		return ""
	}
	return f[19]
}
