package transcript

import (
	"strings"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// codexMarkers are user-role texts Codex injects (environment, AGENTS.md and
// skill instructions, permissions, collaboration mode) rather than the person.
var codexMarkers = []string{
	"<environment_context>",
	"<user_instructions>",
	"# AGENTS.md instructions for",
	"<INSTRUCTIONS>",
	"<permissions instructions>",
	"<permissions_instructions>",
	"<skills_instructions>",
	"<skill",
	"<collaboration_mode>",
	"<personality_spec>",
	"<turn_aborted>",
	"<subagent_notification>",
}

// codexParser maps Codex rollout records to events. Messages are taken from
// response_item only; event_msg mirrors them (item_completed) and is ignored,
// so nothing is imported twice. See docs/transcripts.md.
type codexParser struct{}

// codexPayload holds the picked members of a record's payload.
type codexPayload struct {
	typ, role, content, name, arguments, callID, id, input, action, output, message []byte
}

var codexPayloadKeys = []string{"type", "role", "content", "name", "arguments", "call_id", "id", "input", "action", "output", "message"}

func decodeCodexPayload(v []byte) codexPayload {
	var f [11][]byte
	jsonx.Pick(v, codexPayloadKeys, f[:])
	return codexPayload{f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10]}
}

func (codexParser) parse(rec []byte, off int64, out *sink) {
	var top [3][]byte
	jsonx.Pick(rec, codexTopKeys, top[:])
	typ := str(top[0])
	if typ != "response_item" && typ != "compacted" {
		return // session_meta, turn_context, world_state, event_msg, token usage, future types
	}
	p := decodeCodexPayload(top[2])
	base := Event{RecordID: codexRecordID(rec, p), OccurredAt: parseTime(top[1])}
	if typ == "compacted" {
		base.Kind, base.Role, base.Content = KindCompaction, RoleSystem, str(p.message)
		textEvent(out, off, base, nil)
		return
	}
	codexItem(p, off, base, out)
}

var codexTopKeys = []string{"type", "timestamp", "payload"}

// codexRecordID is the payload's id or call_id, else a digest of the line.
func codexRecordID(rec []byte, p codexPayload) string {
	if id := str(p.id); id != "" {
		return id
	}
	if id := str(p.callID); id != "" {
		return id
	}
	return lineID(rec)
}

func codexItem(p codexPayload, off int64, base Event, out *sink) {
	switch typ := str(p.typ); typ {
	case "message":
		codexMessage(p, off, base, out)
	case "reasoning":
		out.loss(off, "reasoning skipped")
	case "function_call":
		codexCall(str(p.name), jsonArgs(p.arguments), p, base, out)
	case "custom_tool_call":
		name := str(p.name)
		codexCallText(name, name+": "+str(p.input), p, base, out)
	case "local_shell_call":
		codexCall("local_shell", p.action, p, base, out)
	case "web_search_call":
		codexCall("web_search", p.action, p, base, out)
	case "function_call_output", "custom_tool_call_output":
		codexOutput(p, off, base, out)
	case "compaction", "compaction_summary":
		out.loss(off, "encrypted content skipped")
	}
}

func codexMessage(p codexPayload, off int64, base Event, out *sink) {
	role := str(p.role)
	if role != RoleUser && role != RoleAssistant {
		out.loss(off, "system prompt skipped ("+role+")")
		return
	}
	i := 0
	jsonx.Elems(p.content, func(item []byte) bool {
		var f [2][]byte
		jsonx.Pick(item, codexPartKeys, f[:])
		e := base
		e.BlockIndex, e.Kind, e.Role = i, KindMessage, role
		i++
		switch typ := str(f[0]); typ {
		case "input_text", "output_text", "text":
			e.Content = str(f[1])
			textEvent(out, off, e, codexMarkers)
		default:
			out.loss(off, typ+" part skipped")
		}
		return true
	})
}

var codexPartKeys = []string{"type", "text"}

// jsonArgs returns the arguments of a function call as JSON: Codex stores
// them as a string holding JSON; a string that is not JSON stays a string.
func jsonArgs(raw []byte) []byte {
	s, ok := jsonx.String(raw)
	if !ok {
		return raw
	}
	if b := []byte(s); jsonx.Valid(b) {
		return b
	}
	return raw
}

func codexCall(name string, args []byte, p codexPayload, base Event, out *sink) {
	codexCallText(name, toolCallContent(name, args), p, base, out)
}

func codexCallText(name, content string, p codexPayload, base Event, out *sink) {
	base.Kind, base.Role, base.Content = KindToolCall, RoleAssistant, content
	base.Metadata = map[string]any{"tool": name, "call_id": str(p.callID)}
	out.event(base)
}

func codexOutput(p codexPayload, off int64, base Event, out *sink) {
	raw := p.output
	text, other := blockTexts(raw)
	failed := false
	if raw != nil && raw[0] == '{' { // {content, success} form
		text, _ = blockTexts(jsonx.Get(raw, "content"))
		failed = string(jsonx.Get(raw, "success")) == "false"
	}
	if other > 0 {
		out.loss(off, "non-text tool output part skipped")
	}
	text, rep := codexShellOutput(text)
	base.Kind, base.Role, base.Content = KindToolResult, RoleTool, text
	base.Metadata = map[string]any{"call_id": str(p.callID), "is_error": failed}
	rep.apply(base.Metadata)
	toolResultEvent(out, off, base)
}

// codexShellOutput strips the header Codex writes before a command's
// output and returns the output and what the header reported. Forms:
//
//	unified exec (exec_command, write_stdin): Chunk ID, Wall time, "Process
//	  exited with code N" or "Process running with session ID N", Original
//	  token count, then "Output:" and the output on the following lines
//	shell: Exit code, Wall time, Total output lines (when cut), Output:
//	JSON: {"output": "...", "metadata": {"exit_code": N, "duration_seconds": S}}
//
// A "Command: ..." line may lead. Text of another shape (any other tool's
// output) is returned whole.
func codexShellOutput(text string) (string, execReport) {
	if strings.HasPrefix(text, "{") {
		if out, rep, ok := codexJSONOutput([]byte(text)); ok {
			return outputOrNone(out), rep
		}
	}
	var rep execReport
	rest, known := text, 0
	for i := 0; ; i++ {
		line, next, ok := cutLine(rest)
		if !ok {
			return text, execReport{}
		}
		if line == "Output:" {
			if known == 0 {
				return text, execReport{}
			}
			return outputOrNone(codexBody(next, &rep)), rep
		}
		if !codexHeaderLine(line, i, &rep) {
			return text, execReport{}
		}
		known++
		rest = next
	}
}

// codexHeaderLine records one header line; false when it is not one.
func codexHeaderLine(line string, i int, rep *execReport) bool {
	label, value, _ := strings.Cut(line, ": ")
	switch {
	case label == "Chunk ID" || label == "Original token count" || label == "Command" && i == 0:
		return true
	case label == "Wall time":
		return rep.setWall(value)
	case label == "Exit code":
		return rep.setExit(value)
	case label == "Total output lines":
		rep.truncated = true
		return true
	case strings.HasPrefix(line, "Process exited with code "):
		return rep.setExit(strings.TrimPrefix(line, "Process exited with code "))
	case strings.HasPrefix(line, "Process running with session ID "):
		rep.running = true
		return true
	}
	return false
}

// codexBody drops the truncation notice Codex puts before a cut output
// ("Warning: truncated output (original token count: N)", "Total output
// lines: N", a blank line) and notes the cut; the marker inside the output
// ("…N tokens truncated…") stays, it shows where.
func codexBody(body string, rep *execReport) string {
	if strings.HasPrefix(body, "Warning: truncated output") {
		rep.truncated = true
		_, body, _ = cutLine(body)
		if line, rest, ok := cutLine(body); ok && strings.HasPrefix(line, "Total output lines: ") {
			body = strings.TrimPrefix(rest, "\n")
		}
	}
	if strings.Contains(body, " tokens truncated…") {
		rep.truncated = true
	}
	return body
}

func codexJSONOutput(b []byte) (string, execReport, bool) {
	var rep execReport
	if !jsonx.Valid(b) {
		return "", rep, false
	}
	out, ok := jsonx.String(jsonx.Get(b, "output"))
	if !ok {
		return "", rep, false
	}
	meta := jsonx.Get(b, "metadata")
	rep.setExit(string(jsonx.Get(meta, "exit_code")))
	rep.setWall(string(jsonx.Get(meta, "duration_seconds")))
	return out, rep, true
}
