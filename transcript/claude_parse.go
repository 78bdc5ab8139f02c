package transcript

import (
	"strings"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// claudeMarkers are texts Claude Code injects into user records that the
// person never typed: reminders, slash-command markup and hook output.
var claudeMarkers = []string{
	"<system-reminder>",
	"<local-command-caveat>",
	"<command-name>",
	"<command-message>",
	"<command-args>",
	"<local-command-stdout>",
	"<local-command-stderr>",
	"<user-prompt-submit-hook>",
	"<session-start-hook>",
}

// claudeRecord holds the raw fields of one Claude Code JSONL record that
// the import needs; everything else (toolUseResult, usage...) is skipped.
type claudeRecord struct {
	typ, uuid, ts, message, summary, content []byte
	isMeta, sidechain, compactSummary        bool
}

func decodeClaude(rec []byte) claudeRecord {
	var r claudeRecord
	jsonx.Fields(rec, func(k, v []byte) bool {
		switch string(jsonx.KeyName(k)) {
		case "type":
			r.typ = v
		case "uuid":
			r.uuid = v
		case "timestamp":
			r.ts = v
		case "message":
			r.message = v
		case "summary":
			r.summary = v
		case "content":
			r.content = v
		case "isMeta":
			r.isMeta = jsonx.Bool(v)
		case "isSidechain":
			r.sidechain = jsonx.Bool(v)
		case "isCompactSummary":
			r.compactSummary = jsonx.Bool(v)
		}
		return true
	})
	return r
}

// claudeParser maps Claude Code records to events. See docs/transcripts.md.
type claudeParser struct{}

func (claudeParser) parse(rec []byte, off int64, out *sink) {
	r := decodeClaude(rec)
	// Claude stamps each record from one clock when it creates it, along
	// the parentUuid chain, but may write a prompt after the tool call it
	// caused: the time places the event (docs/transcripts.md).
	base := Event{RecordID: str(r.uuid), OccurredAt: parseTime(r.ts), ByTime: true}
	if base.RecordID == "" {
		base.RecordID = lineID(rec)
	}
	switch str(r.typ) {
	case "user", "assistant":
		claudeConversation(r, off, base, out)
	case "summary", "compact", "compaction":
		text := str(r.summary)
		if text == "" {
			text, _ = blockTexts(r.content)
		}
		claudeCompaction(text, off, base, out)
	case "attachment":
		out.loss(off, "injected context skipped (attachment "+str(jsonx.Get(jsonx.Get(rec, "attachment"), "type"))+")")
	}
	// Every other type (queue-operation, last-prompt, mode, system, the
	// api-request/cost records of 2.1.332, future ones) is bookkeeping.
}

func claudeCompaction(text string, off int64, base Event, out *sink) {
	base.Kind, base.Role, base.Content = KindCompaction, RoleSystem, text
	textEvent(out, off, base, nil)
}

func claudeConversation(r claudeRecord, off int64, base Event, out *sink) {
	switch {
	case r.sidechain:
		out.loss(off, "sidechain record skipped")
		return
	case r.isMeta:
		out.loss(off, "meta record skipped")
		return
	}
	var m [2][]byte
	jsonx.Pick(r.message, claudeMessageKeys, m[:])
	content, role := m[0], str(m[1])
	if role == "" {
		role = str(r.typ)
	}
	if r.compactSummary {
		text, _ := blockTexts(content)
		claudeCompaction(text, off, base, out)
		return
	}
	if s, ok := jsonx.String(content); ok {
		claudeText(s, role, 0, off, base, out)
		return
	}
	i := 0
	jsonx.Elems(content, func(block []byte) bool {
		claudeBlock(block, role, i, off, base, out)
		i++
		return true
	})
}

func claudeText(text, role string, idx int, off int64, base Event, out *sink) {
	base.Kind, base.Role, base.Content, base.BlockIndex = KindMessage, role, text, idx
	textEvent(out, off, base, claudeMarkers)
}

var (
	claudeMessageKeys = []string{"content", "role"}
	claudeBlockKeys   = []string{"type", "text", "name", "input", "id", "content", "tool_use_id", "is_error"}
)

// claudeBlockFields are the picked members of one content block, in the
// order of claudeBlockKeys.
type claudeBlockFields [8][]byte

func (f *claudeBlockFields) get(key string) []byte {
	for i, k := range claudeBlockKeys {
		if k == key {
			return f[i]
		}
	}
	return nil
}

func claudeBlock(block []byte, role string, idx int, off int64, base Event, out *sink) {
	var f claudeBlockFields
	jsonx.Pick(block, claudeBlockKeys, f[:])
	base.BlockIndex = idx
	switch typ := str(f.get("type")); typ {
	case "text":
		claudeText(str(f.get("text")), role, idx, off, base, out)
	case "tool_use", "server_tool_use":
		name := str(f.get("name"))
		base.Kind, base.Role = KindToolCall, RoleAssistant
		base.Content = toolCallContent(name, f.get("input"))
		base.Metadata = map[string]any{"tool": name, "call_id": str(f.get("id"))}
		out.event(base)
	case "tool_result":
		claudeToolResult(&f, off, base, out)
	case "thinking", "redacted_thinking":
		out.loss(off, "thinking block skipped")
	case "":
		out.loss(off, "content block without a type skipped")
	default:
		out.loss(off, typ+" block skipped")
	}
}

func claudeToolResult(f *claudeBlockFields, off int64, base Event, out *sink) {
	text, other := blockTexts(f.get("content"))
	if other > 0 {
		out.loss(off, "non-text tool result part skipped")
	}
	isErr := jsonx.Bool(f.get("is_error"))
	var rep execReport
	if isErr {
		text, rep = claudeExitLine(text)
	}
	base.Kind, base.Role, base.Content = KindToolResult, RoleTool, text
	base.Metadata = map[string]any{
		"call_id":  str(f.get("tool_use_id")),
		"is_error": isErr,
	}
	rep.apply(base.Metadata)
	toolResultEvent(out, off, base)
}

// claudeExitLine parses the "Exit code N" line Claude Code's Bash tool puts
// before the stderr and stdout of a failed command.
func claudeExitLine(text string) (string, execReport) {
	var rep execReport
	line, rest, _ := cutLine(text)
	code, ok := strings.CutPrefix(line, "Exit code ")
	if !ok || !rep.setExit(code) {
		return text, execReport{}
	}
	return outputOrNone(rest), rep
}
