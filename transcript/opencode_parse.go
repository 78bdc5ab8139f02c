package transcript

import (
	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
	"strconv"
	"strings"
	"time"
)

// Both JSON columns are validated before any field is picked: the picking
// helpers assume valid JSON (FuzzOpenCodePart found the panic otherwise).

// opencodeSettled reports whether a part is final: a tool that completed or
// failed, text or reasoning whose time.end is set, and every other type
// (written once). An unfinished part older than opencodeStaleAfter counts
// as final too.
func opencodeSettled(row opencodeRow, now int64) bool {
	// The JSON helpers expect valid input; malformed data is final (a loss).
	if now-row.updated > opencodeStaleAfter.Milliseconds() || !jsonx.Valid(row.data) {
		return true
	}
	switch str(jsonx.Get(row.data, "type")) {
	case "tool":
		st := str(jsonx.Get(jsonx.Get(row.data, "state"), "status"))
		return st == "completed" || st == "error"
	case "text", "reasoning":
		t := jsonx.Get(row.data, "time")
		return len(t) == 0 || len(jsonx.Get(t, "end")) > 0
	}
	return true
}

// parseOpenCodePart maps one part (its JSON data column) to events and
// losses. Only text of user and assistant messages and tool calls with their
// results are imported; everything else is noted as a loss.
func parseOpenCodePart(row opencodeRow, out *sink) {
	if !jsonx.Valid(row.data) || !jsonx.Valid(row.msg) {
		out.loss(0, "malformed opencode part or message "+row.id+" skipped")
		return
	}
	// Parts are read in update order (a tool part is rewritten when its tool
	// finishes); their creation times are the conversation's order.
	base := Event{RecordID: row.id, OccurredAt: time.UnixMilli(row.created).UTC(), ByTime: true}
	switch typ := str(jsonx.Get(row.data, "type")); typ {
	case "text":
		opencodeText(row, base, out)
	case "tool":
		opencodeTool(row, base, out)
	case "reasoning":
		out.loss(0, "reasoning not imported (opencode part "+row.id+")")
	case "step-start", "step-finish":
		out.loss(0, "opencode step marker skipped ("+typ+")")
	case "":
		out.loss(0, "opencode part "+row.id+" without a type skipped")
	default: // file, patch, snapshot, agent, subtask, retry, compaction
		out.loss(0, "opencode "+typ+" part skipped")
	}
}

// opencodeText imports visible text. Synthetic text (written by OpenCode
// itself, e.g. around attached files) and ignored text never reached the
// conversation as the user's words; a summary message is a compaction.
func opencodeText(row opencodeRow, base Event, out *sink) {
	if jsonx.Bool(jsonx.Get(row.data, "synthetic")) || jsonx.Bool(jsonx.Get(row.data, "ignored")) {
		out.loss(0, "synthetic opencode text skipped")
		return
	}
	base.Content = str(jsonx.Get(row.data, "text"))
	switch role := str(jsonx.Get(row.msg, "role")); {
	case role == "assistant" && jsonx.Bool(jsonx.Get(row.msg, "summary")):
		base.Kind, base.Role = KindCompaction, RoleSystem
	case role == RoleUser || role == RoleAssistant:
		base.Kind, base.Role = KindMessage, role
	default:
		out.loss(0, "opencode text of role "+strconv.Quote(role)+" skipped")
		return
	}
	textEvent(out, 0, base, nil)
}

// opencodeTool imports the call (block 0, "name: <input>") and, once the
// tool finished, its result (block 1: output, or the error text).
func opencodeTool(row opencodeRow, base Event, out *sink) {
	name, callID := str(jsonx.Get(row.data, "tool")), str(jsonx.Get(row.data, "callID"))
	state := jsonx.Get(row.data, "state")
	call := base
	call.Kind, call.Role, call.Content = KindToolCall, RoleAssistant, toolCallContent(name, jsonx.Get(state, "input"))
	call.Metadata = map[string]any{"tool": name, "call_id": callID}
	out.event(call)
	res := base
	res.BlockIndex, res.Kind, res.Role = 1, KindToolResult, RoleTool
	if end, err := strconv.ParseInt(string(jsonx.Get(jsonx.Get(state, "time"), "end")), 10, 64); err == nil {
		res.OccurredAt = time.UnixMilli(end).UTC()
	}
	switch st := str(jsonx.Get(state, "status")); st {
	case "completed":
		var rep execReport
		res.Content, rep = opencodeToolStatus(state)
		res.Metadata = map[string]any{"call_id": callID, "is_error": false}
		rep.apply(res.Metadata)
	case "error":
		res.Content = str(jsonx.Get(state, "error"))
		res.Metadata = map[string]any{"call_id": callID, "is_error": true}
	default:
		out.loss(0, "opencode tool call "+callID+" never finished ("+st+"); no result")
		return
	}
	toolResultEvent(out, 0, res)
}

// opencodeToolStatus returns a finished tool's output and what OpenCode
// recorded about the run: state.metadata.exit and .truncated (bash), the
// run's start and end times, and a <bash_metadata> block the bash tool
// appends to the output after a timeout or abort, which is taken off.
func opencodeToolStatus(state []byte) (string, execReport) {
	var rep execReport
	out := str(jsonx.Get(state, "output"))
	meta := jsonx.Get(state, "metadata")
	rep.setExit(string(jsonx.Get(meta, "exit")))
	rep.truncated = jsonx.Bool(jsonx.Get(meta, "truncated"))
	tm := jsonx.Get(state, "time")
	start, err1 := strconv.ParseInt(string(jsonx.Get(tm, "start")), 10, 64)
	end, err2 := strconv.ParseInt(string(jsonx.Get(tm, "end")), 10, 64)
	if err1 == nil && err2 == nil && end >= start {
		w := float64(end-start) / 1000
		rep.wallTime = &w
	}
	if i := strings.LastIndex(out, "\n\n<bash_metadata>\n"); i >= 0 && strings.HasSuffix(strings.TrimRight(out, "\n"), "</bash_metadata>") {
		out = outputOrNone(out[:i])
	}
	return out, rep
}
