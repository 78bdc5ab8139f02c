package transcript

import "github.com/ai-memory/ai-memory/transcript/internal/jsonx"

// qwenParser maps Qwen Code records to events. Records are Claude-like
// (uuid/parentUuid chain) with Gemini-style message parts. Key on type and
// provenance, not role: a tool result has message.role "user". System
// records (ui_telemetry, attribution and file-history snapshots) are
// bookkeeping; the system prompt, including our --append-system-prompt
// packet, is never stored.
type qwenParser struct{}

var (
	qwenTopKeys  = []string{"type", "uuid", "timestamp", "message", "provenance", "subtype"}
	qwenPartKeys = []string{"text", "thought", "functionCall", "functionResponse"}
)

func (qwenParser) parse(rec []byte, off int64, out *sink) {
	var f [6][]byte
	jsonx.Pick(rec, qwenTopKeys, f[:])
	base := Event{RecordID: str(f[1]), OccurredAt: parseTime(f[2])}
	if base.RecordID == "" {
		base.RecordID = lineID(rec)
	}
	switch typ := str(f[0]); typ {
	case "user":
		if p := str(f[4]); p != "" && p != "real_user" {
			out.loss(off, "injected context skipped ("+p+")")
			return
		}
		qwenParts(jsonx.Get(f[3], "parts"), RoleUser, off, base, out)
	case "assistant", "tool_result":
		qwenParts(jsonx.Get(f[3], "parts"), RoleAssistant, off, base, out)
	case "system":
		if sub := str(f[5]); sub == "chat_compression" {
			out.loss(off, "chat compression record skipped")
		}
	}
}

func qwenParts(parts []byte, role string, off int64, base Event, out *sink) {
	i := 0
	jsonx.Elems(parts, func(part []byte) bool {
		var p [4][]byte
		jsonx.Pick(part, qwenPartKeys, p[:])
		e := base
		e.BlockIndex = i
		i++
		switch {
		case jsonx.Bool(p[1]):
			out.loss(off, "thought part skipped")
		case p[2] != nil:
			name := str(jsonx.Get(p[2], "name"))
			e.Kind, e.Role = KindToolCall, RoleAssistant
			e.Content = toolCallContent(name, jsonx.Get(p[2], "args"))
			e.Metadata = map[string]any{"tool": name, "call_id": str(jsonx.Get(p[2], "id"))}
			out.event(e)
		case p[3] != nil:
			resp := jsonx.Get(p[3], "response")
			text, ok := jsonx.String(jsonx.Get(resp, "output"))
			if !ok {
				text = string(jsonx.Compact(nil, resp))
			}
			// Qwen Code keeps Gemini CLI's shell report (gemini_parse.go).
			text, rep := geminiShellReport(text)
			e.Kind, e.Role, e.Content = KindToolResult, RoleTool, text
			e.Metadata = map[string]any{"call_id": str(jsonx.Get(p[3], "id"))}
			rep.apply(e.Metadata)
			toolResultEvent(out, off, e)
		case p[0] != nil:
			e.Kind, e.Role, e.Content = KindMessage, role, str(p[0])
			textEvent(out, off, e, nil)
		default:
			out.loss(off, "non-text part skipped")
		}
		return true
	})
}
