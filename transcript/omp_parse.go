package transcript

import (
	"bytes"
	"os"
	"strings"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// ompParser maps oh-my-pi entries to events with Pi's parser (the entry
// tree, message roles and blocks are Pi's), plus OMP's own rule: a user
// message attributed to the agent (a notice, a task or a steer the agent
// sent itself) is not what the user typed, so it is a loss. The title slot
// (line 1), title_change and custom entries (tool_execution_start,
// session_exit) carry no conversation and are skipped. The system prompt,
// with --append-system-prompt text such as our packet, is never stored.
type ompParser struct{ pi piParser }

// newOmpParser reads with Pi's parser and OMP's bash framing.
func newOmpParser(abandoned map[string]bool) *ompParser {
	return &ompParser{pi: piParser{abandoned: abandoned, status: ompBashStatus}}
}

// ompWallTime is the notice OMP 18.2.3's bash tool puts after a command's
// output (tools/bash.ts formatWallTimeNotice, two decimals).
const ompWallTime = "Wall time: "

// ompBashStatus takes off what OMP's bash tool appends to the output: a
// blank line and its notices, the first being "Wall time: S seconds", then
// Pi's "Command exited with code N" paragraph on a failure. Only a notice
// paragraph that is exactly one wall-time line is taken; other notices
// (a clamped timeout, ...) stay with the output.
func ompBashStatus(text string) (string, execReport) {
	var rep execReport
	body := text
	if head, last := piLastParagraph(body); strings.HasPrefix(last, "Command exited with code ") {
		if !rep.setExit(strings.TrimPrefix(last, "Command exited with code ")) {
			return text, execReport{}
		}
		body = head
	}
	if head, last := piLastParagraph(body); strings.HasPrefix(last, ompWallTime) && !strings.Contains(last, "\n") &&
		rep.setWall(strings.TrimPrefix(last, ompWallTime)) {
		body = head
	}
	if body == text {
		return text, rep
	}
	return outputOrNone(body), rep
}

var ompUserKeys = []string{"role", "attribution"}

func (p *ompParser) parse(rec []byte, off int64, out *sink) {
	if str(jsonx.Get(rec, "type")) == "message" {
		var f [2][]byte
		jsonx.Pick(jsonx.Get(rec, "message"), ompUserKeys, f[:])
		if str(f[0]) == RoleUser && str(f[1]) == "agent" {
			out.loss(off, "agent-attributed user message skipped")
			return
		}
	}
	p.pi.parse(rec, off, out)
}

// ompTitleMax bounds the title slot OMP keeps on line 1 (256 bytes in
// 18.2.3).
const ompTitleMax = 4096

// mutableHead is the length of the title slot, which OMP rewrites in place
// when the title changes, or 0 when line 1 is something else.
func (*ompParser) mutableHead(f *os.File) int64 {
	buf := make([]byte, ompTitleMax)
	n, _ := f.ReadAt(buf, 0)
	i := bytes.IndexByte(buf[:n], '\n')
	if i < 0 || !jsonx.Valid(buf[:i]) || str(jsonx.Get(buf[:i], "type")) != "title" {
		return 0
	}
	return int64(i + 1)
}
