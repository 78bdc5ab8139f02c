package transcript

import (
	"strings"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// qwenParser maps Qwen Code records to events. Records are Claude-like
// (uuid/parentUuid chain) with Gemini-style message parts. Key on type and
// provenance, not role: a tool result has message.role "user". System
// records (ui_telemetry, attribution and file-history snapshots) are
// bookkeeping; the system prompt, including our --append-system-prompt
// packet, is never stored.
type qwenParser struct{}

var (
	qwenTopKeys  = []string{"type", "uuid", "timestamp", "message", "provenance", "subtype", "systemPayload"}
	qwenPartKeys = []string{"text", "thought", "functionCall", "functionResponse"}
)

// Qwen wraps the additional context of a UserPromptSubmit hook in these
// tags, as the last text part of the user's message.
const (
	qwenHookOpen  = "<qwen:user-prompt-submit-context>"
	qwenHookClose = "</qwen:user-prompt-submit-context>"
)

func (qwenParser) parse(rec []byte, off int64, out *sink) {
	var f [7][]byte
	jsonx.Pick(rec, qwenTopKeys, f[:])
	base := Event{RecordID: str(f[1]), OccurredAt: parseTime(f[2])}
	if base.RecordID == "" {
		base.RecordID = lineID(rec)
	}
	switch typ := str(f[0]); typ {
	case "user":
		if p := str(f[4]); (p != "" && p != "real_user") || str(f[5]) == "goal_runtime" {
			out.loss(off, "injected context skipped ("+p+")")
			return
		}
		qwenUser(jsonx.Get(f[3], "parts"), f[6], off, base, out)
	case "assistant", "tool_result":
		qwenParts(jsonx.Get(f[3], "parts"), maxQwenParts, RoleAssistant, off, base, out)
	case "system":
		switch str(f[5]) {
		case "chat_compression":
			out.loss(off, "chat compression record skipped")
		case "rewind":
			// Qwen re-roots the chain: the turns after the rewind point are
			// abandoned, but were imported when they were written.
			out.loss(off, "rewind: abandoned turns stay imported")
		}
	}
}

// qwenUser imports what the user typed, without the hook context Qwen
// appends to the message: like Qwen's own transcript view
// (projectUserTranscriptForDisplay), the payload's displayText replaces the
// text parts when the record carries hook context, and a trailing context
// part is dropped otherwise.
func qwenUser(parts, payload []byte, off int64, base Event, out *sink) {
	var texts []string
	jsonx.Elems(parts, func(part []byte) bool {
		t, _ := jsonx.String(jsonx.Get(part, "text"))
		texts = append(texts, t)
		return true
	})
	hookPart := len(texts) > 1 && qwenHookContext(texts[len(texts)-1])
	_, hookCtx := jsonx.String(jsonx.Get(payload, "hookContext"))
	if display, ok := jsonx.String(jsonx.Get(payload, "displayText")); ok && (hookCtx || hookPart) {
		out.loss(off, "hook context skipped")
		e := base
		e.Kind, e.Role, e.Content = KindMessage, RoleUser, display
		textEvent(out, off, e, nil)
		return
	}
	n := len(texts)
	if hookPart {
		out.loss(off, "hook context skipped")
		n--
	}
	qwenParts(parts, n, RoleUser, off, base, out)
}

// qwenHookContext mirrors Qwen's isUserPromptSubmitContextPartText.
func qwenHookContext(text string) bool {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, qwenHookOpen+"\n") || !strings.HasSuffix(t, "\n"+qwenHookClose) {
		return false
	}
	body := t[len(qwenHookOpen)+1 : len(t)-len(qwenHookClose)-1]
	return !strings.Contains(body, qwenHookOpen) && !strings.Contains(body, qwenHookClose)
}

// maxQwenParts means every part of a message.
const maxQwenParts = int(^uint(0) >> 1)

// qwenParts imports the first n parts of a message.
func qwenParts(parts []byte, n int, role string, off int64, base Event, out *sink) {
	i := 0
	jsonx.Elems(parts, func(part []byte) bool {
		if i >= n {
			return false
		}
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
