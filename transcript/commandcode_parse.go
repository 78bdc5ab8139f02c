package transcript

import (
	"strings"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// commandCodeParser maps Command Code entries to events. Imported: user
// and assistant text, tool_use blocks, tool_result blocks (in user-role
// messages from the tool) and compaction and branch summaries. Losses:
// reasoning, images and other non-text parts, extension-injected
// custom_message entries and entries on abandoned branches. Bookkeeping
// entries (session_info, model_change, effort_change, label, custom) are
// skipped silently. The packet delivered through a --mod's
// appendSystemPrompt is not written to the file at all.
type commandCodeParser struct{ abandoned map[string]bool }

var commandCodeTopKeys = []string{"type", "id", "timestamp", "message", "summary"}

func (p *commandCodeParser) parse(rec []byte, off int64, out *sink) {
	var f [5][]byte
	jsonx.Pick(rec, commandCodeTopKeys, f[:])
	typ, id := str(f[0]), str(f[1])
	if id != "" && p.abandoned[id] {
		out.loss(off, "entry on an abandoned branch skipped")
		return
	}
	base := Event{RecordID: id, OccurredAt: parseTime(f[2])}
	if base.RecordID == "" {
		base.RecordID = lineID(rec)
	}
	switch typ {
	case "message":
		role := str(jsonx.Get(f[3], "role"))
		if role != RoleUser && role != RoleAssistant {
			out.loss(off, "message skipped ("+role+")")
			return
		}
		commandCodeBlocks(role, jsonx.Get(f[3], "content"), off, base, out)
	case "compaction", "branch_summary":
		base.Kind, base.Role, base.Content = KindCompaction, RoleSystem, str(f[4])
		base.Metadata = map[string]any{"command_code_type": typ}
		textEvent(out, off, base, nil)
	case "custom_message":
		out.loss(off, "extension message skipped (custom_message)")
	}
}

var commandCodeBlockKeys = []string{"type", "text", "name", "input", "id", "tool_use_id", "content", "is_error"}

// commandCodeBlocks imports a content string or array of text, tool_use
// and tool_result blocks.
func commandCodeBlocks(role string, content []byte, off int64, base Event, out *sink) {
	if s, ok := jsonx.String(content); ok {
		e := base
		e.Kind, e.Role, e.Content = KindMessage, role, s
		textEvent(out, off, e, nil)
		return
	}
	i := 0
	jsonx.Elems(content, func(b []byte) bool {
		var f [8][]byte
		jsonx.Pick(b, commandCodeBlockKeys, f[:])
		e := base
		e.BlockIndex = i
		i++
		switch typ := str(f[0]); typ {
		case "text":
			e.Kind, e.Role, e.Content = KindMessage, role, str(f[1])
			textEvent(out, off, e, nil)
		case "tool_use":
			name := str(f[2])
			e.Kind, e.Role, e.Content = KindToolCall, RoleAssistant, toolCallContent(name, f[3])
			e.Metadata = map[string]any{"tool": name, "call_id": str(f[4])}
			out.event(e)
		case "tool_result":
			text, other := blockTexts(f[6])
			if other > 0 {
				out.loss(off, "non-text tool output part skipped")
			}
			text, rep := commandCodeShellStatus(text)
			e.Kind, e.Role, e.Content = KindToolResult, RoleTool, text
			e.Metadata = map[string]any{"call_id": str(f[5]), "is_error": jsonx.Bool(f[7])}
			rep.apply(e.Metadata)
			toolResultEvent(out, off, e)
		case "thinking", "redacted_thinking":
			out.loss(off, "reasoning skipped")
		default:
			out.loss(off, typ+" part skipped")
		}
		return true
	})
}

// Command Code 1.64.0's shell tools (the bundle's formatResult2 and
// formatShellCommandResult) put a report before the output: "Exit code: N"
// (with " (meaning)" for a known command's status 1) when the command
// failed, then "Signal: S" when one ended it; "(no output)" stands for an
// empty result.
const (
	commandCodeExitLine   = "Exit code: "
	commandCodeSignalLine = "Signal: "
)

// commandCodeShellStatus takes the leading report lines into metadata.
func commandCodeShellStatus(text string) (string, execReport) {
	var rep execReport
	body := text
	if line, rest, _ := cutLine(body); strings.HasPrefix(line, commandCodeExitLine) {
		code, _, _ := strings.Cut(strings.TrimPrefix(line, commandCodeExitLine), " (")
		if !rep.setExit(code) {
			return text, execReport{}
		}
		body = rest
	}
	if line, rest, _ := cutLine(body); rep.exitCode != nil && strings.HasPrefix(line, commandCodeSignalLine) && line != commandCodeSignalLine {
		rep.signal, body = strings.TrimPrefix(line, commandCodeSignalLine), rest
	}
	if body == text {
		return text, rep
	}
	return outputOrNone(body), rep
}
