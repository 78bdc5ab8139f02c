package transcript

import (
	"strconv"
	"strings"
)

// Metadata keys of a tool result for what the harness reported about the
// execution, parsed out of the framing some harnesses write around the
// output (an exit-code line, a wall-time line...): the event's content is
// then the output alone. Each source parses its own framing; see
// docs/transcripts.md, "Tool results".
const (
	MetaExitCode  = "exit_code"         // int: the process's exit status
	MetaWallTime  = "wall_time_seconds" // float: how long it ran
	MetaTruncated = "truncated"         // bool, only when true: the harness cut the output
	MetaSignal    = "signal"            // string: the signal that ended it
	MetaRunning   = "still_running"     // bool, only when true: the harness left it running
	MetaError     = "error"             // string: a process-level error (spawn failure...)
)

// execReport collects what a framing said about one execution.
type execReport struct {
	exitCode  *int
	wallTime  *float64
	truncated bool
	running   bool
	signal    string
	err       string
}

// apply adds the report to a result's metadata; a non-zero exit marks the
// result an error.
func (r execReport) apply(meta map[string]any) {
	if r.exitCode != nil {
		meta[MetaExitCode] = *r.exitCode
		if *r.exitCode != 0 {
			meta["is_error"] = true
		}
	}
	if r.wallTime != nil {
		meta[MetaWallTime] = *r.wallTime
	}
	if r.truncated {
		meta[MetaTruncated] = true
	}
	if r.running {
		meta[MetaRunning] = true
	}
	if r.signal != "" {
		meta[MetaSignal] = r.signal
	}
	if r.err != "" {
		meta[MetaError] = r.err
		meta["is_error"] = true
	}
}

// setExit parses an exit status; false when s is not an integer.
func (r *execReport) setExit(s string) bool {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err == nil {
		r.exitCode = &n
	}
	return err == nil
}

// setWall parses "0.0012 seconds" (or a bare number); false otherwise.
func (r *execReport) setWall(s string) bool {
	f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), " seconds"), 64)
	if err == nil {
		r.wallTime = &f
	}
	return err == nil
}

// cutLine splits off text's first line (without its newline).
func cutLine(text string) (line, rest string, ok bool) {
	i := strings.IndexByte(text, '\n')
	if i < 0 {
		return text, "", false
	}
	return text[:i], text[i+1:], true
}

// noOutput is the content of a framed result whose output is empty: the
// result still happened (a failed command without output is worth
// knowing), and the ledger drops blank events.
const noOutput = "(no output)"

// outputOrNone returns body, or noOutput when it is blank.
func outputOrNone(body string) string {
	if strings.TrimSpace(body) == "" {
		return noOutput
	}
	return body
}
