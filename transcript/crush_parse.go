package transcript

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// Crush's messages.parts is a JSON array of {"type": T, "data": {...}}
// (internal/message/message.go marshalParts), T one of text, reasoning,
// image_url, binary, tool_call, tool_result, finish, shell_command. The
// column is validated before any field is picked: the picking helpers
// assume valid JSON.

// crushFinal reports whether a message is final: user, tool and system
// messages are written once; an assistant message is final once it has a
// finish part (finished_at is set with it), or when it was last written
// more than crushStaleAfter before now (Unix seconds).
func crushFinal(r crushRow, now int64) bool {
	if r.role != RoleAssistant || r.finished || !jsonx.Valid(r.parts) {
		return true
	}
	if now-crushTime(r.updated).Unix() > int64(crushStaleAfter/time.Second) {
		return true
	}
	final := false
	jsonx.Elems(r.parts, func(p []byte) bool {
		final = str(jsonx.Get(p, "type")) == "finish"
		return !final
	})
	return final
}

// parseCrushMessage maps one message to events and losses: text of user
// and assistant messages (a summary message's text is a compaction), tool
// calls, tool results and bang-mode shell commands; reasoning and
// attachments are losses. Block index is part index × 2 (+1 for the
// output of a shell command).
func parseCrushMessage(r crushRow, out *sink) {
	if !jsonx.Valid(r.parts) || len(r.parts) == 0 || r.parts[0] != '[' {
		out.loss(0, "malformed crush message "+r.id+" skipped")
		return
	}
	base := Event{RecordID: r.id, OccurredAt: crushTime(r.created).UTC()}
	i := 0
	jsonx.Elems(r.parts, func(p []byte) bool {
		e := base
		e.BlockIndex = 2 * i
		i++
		crushPart(r, p, e, out)
		return true
	})
}

// crushPart maps one part of message r.
func crushPart(r crushRow, p []byte, e Event, out *sink) {
	data := jsonx.Get(p, "data")
	switch typ := str(jsonx.Get(p, "type")); typ {
	case "text":
		crushText(r, data, e, out)
	case "tool_call":
		crushToolCall(r, data, e, out)
	case "tool_result":
		name, content := str(jsonx.Get(data, "name")), str(jsonx.Get(data, "content"))
		var rep execReport
		if name == crushBashTool {
			content, rep = crushBashStatus(content, str(jsonx.Get(data, "metadata")))
		}
		e.Kind, e.Role, e.Content = KindToolResult, RoleTool, content
		e.Metadata = map[string]any{"call_id": str(jsonx.Get(data, "tool_call_id")),
			"tool": name, "is_error": jsonx.Bool(jsonx.Get(data, "is_error"))}
		rep.apply(e.Metadata)
		toolResultEvent(out, 0, e)
	case "shell_command":
		crushShell(data, e, out)
	case "finish":
		if reason := str(jsonx.Get(data, "reason")); reason == "error" || reason == "canceled" {
			out.loss(0, "crush turn ended: "+reason+" (message "+r.id+")")
		}
	case "reasoning":
		out.loss(0, "reasoning not imported (crush message "+r.id+")")
	case "image_url", "binary":
		out.loss(0, "crush "+typ+" attachment not imported")
	default:
		out.loss(0, "crush part of type "+strconv.Quote(typ)+" skipped")
	}
}

// crushText imports text of user and assistant messages.
func crushText(r crushRow, data []byte, e Event, out *sink) {
	e.Content = str(jsonx.Get(data, "text"))
	switch {
	case r.summary:
		e.Kind, e.Role = KindCompaction, RoleSystem
	case r.role == RoleUser || r.role == RoleAssistant:
		e.Kind, e.Role = KindMessage, r.role
	default:
		out.loss(0, "crush text of role "+strconv.Quote(r.role)+" skipped")
		return
	}
	textEvent(out, 0, e, nil)
}

// crushToolCall imports a finished call as "name: <input>" (input is a
// JSON document held in a string); an unfinished one was cut off.
func crushToolCall(r crushRow, data []byte, e Event, out *sink) {
	name, id := str(jsonx.Get(data, "name")), str(jsonx.Get(data, "id"))
	if !jsonx.Bool(jsonx.Get(data, "finished")) {
		out.loss(0, "crush tool call "+id+" never finished (message "+r.id+")")
		return
	}
	input := stringArgs(str(jsonx.Get(data, "input")))
	e.Kind, e.Role, e.Content = KindToolCall, RoleAssistant, toolCallContent(name, input)
	e.Metadata = map[string]any{"tool": name, "call_id": id}
	out.event(e)
}

// crushShell imports a bang-mode command the user ran (`!cmd`) as a call
// and its output as the result.
func crushShell(data []byte, e Event, out *sink) {
	cmd := jsonx.Get(data, "command")
	call := e
	call.Kind, call.Role = KindToolCall, RoleUser
	call.Content = "shell: " + str(cmd)
	call.Metadata = map[string]any{"tool": "shell"}
	out.event(call)
	res := e
	res.BlockIndex++
	res.Kind, res.Role, res.Content = KindToolResult, RoleTool, str(jsonx.Get(data, "output"))
	res.Metadata = map[string]any{"tool": "shell", "exit_code": str(jsonx.Get(data, "exit_code"))}
	if n, err := strconv.Atoi(string(jsonx.Get(data, "exit_code"))); err == nil {
		res.Metadata["exit_code"] = n
		res.Metadata["is_error"] = n != 0
	}
	toolResultEvent(out, 0, res)
}

// stringArgs returns tool arguments held in a JSON string: the document
// itself when it is valid JSON, else the text as a JSON string (valid
// UTF-8 either way).
func stringArgs(s string) []byte {
	if b := []byte(s); jsonx.Valid(b) && utf8.Valid(b) {
		return b
	}
	b, _ := json.Marshal(s) // replaces invalid UTF-8; cannot fail for a string
	return b
}

// Crush v0.90.0's bash tool (internal/agent/tools/bash.go) frames a
// command's output: formatOutput appends "Exit code N" (or "Command was
// aborted before completion") on a line after stderr, a finished
// background job gets "\n\n<cwd>DIR</cwd>", an empty output is "no output",
// and the part's metadata (BashResponseMetadata JSON) has start_time and
// end_time in Unix milliseconds.
const (
	crushBashTool  = "bash"
	crushNoOutput  = "no output"
	crushExitLine  = "Exit code "
	crushAborted   = "Command was aborted before completion"
	crushCwdPrefix = "<cwd>"
)

// crushBashStatus takes that framing off into metadata.
func crushBashStatus(text, metadata string) (string, execReport) {
	var rep execReport
	if start, end, ok := crushTimes(metadata); ok {
		w := float64(end-start) / 1000
		rep.wallTime = &w
	}
	body := text
	if i := strings.LastIndex(body, "\n\n"+crushCwdPrefix); i >= 0 && strings.HasSuffix(body, "</cwd>") &&
		!strings.Contains(body[i+2:], "\n") {
		body = body[:i]
	}
	head, last := "", body
	if i := strings.LastIndexByte(body, '\n'); i >= 0 {
		head, last = body[:i], body[i+1:]
	}
	switch {
	case last == crushAborted:
		rep.err, body = crushAborted, head
	case strings.HasPrefix(last, crushExitLine) && rep.setExit(strings.TrimPrefix(last, crushExitLine)):
		body = head
	}
	if body == crushNoOutput {
		body = ""
	}
	if body == text {
		return text, rep
	}
	return outputOrNone(body), rep
}

// crushTimes reads start_time and end_time from a bash result's metadata.
func crushTimes(metadata string) (start, end int64, ok bool) {
	if !jsonx.Valid([]byte(metadata)) {
		return 0, 0, false
	}
	var f [2][]byte
	jsonx.Pick([]byte(metadata), []string{"start_time", "end_time"}, f[:])
	s, err1 := strconv.ParseInt(string(f[0]), 10, 64)
	e, err2 := strconv.ParseInt(string(f[1]), 10, 64)
	return s, e, err1 == nil && err2 == nil && s > 0 && e >= s
}
