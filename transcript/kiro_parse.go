package transcript

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// kiroV2Parser maps v2 envelopes: Prompt text → user messages,
// AssistantMessage text and toolUse → assistant messages and tool calls,
// ToolResults toolResult → tool results (status other than "success" is an
// error). Envelopes of another version, other kinds (Compaction, …) and
// non-text parts are losses. Record id: data.message_id, else a digest of
// the line.
type kiroV2Parser struct{}

func (kiroV2Parser) parse(rec []byte, off int64, out *sink) {
	if v := str(jsonx.Get(rec, "version")); v != "v1" {
		out.loss(off, "kiro record of envelope version "+strconv.Quote(v)+" skipped")
		return
	}
	data := jsonx.Get(rec, "data")
	base := Event{RecordID: str(jsonx.Get(data, "message_id")),
		OccurredAt: kiroTime(jsonx.Get(jsonx.Get(data, "meta"), "timestamp"))}
	if base.RecordID == "" {
		base.RecordID = lineID(rec)
	}
	switch kind := str(jsonx.Get(rec, "kind")); kind {
	case "Prompt", "AssistantMessage", "ToolResults":
		kiroParts(kind, jsonx.Get(data, "content"), off, base, out)
	default:
		out.loss(off, "kiro "+strconv.Quote(kind)+" record not imported")
	}
}

// kiroParts maps the content parts of one envelope.
func kiroParts(kind string, content []byte, off int64, base Event, out *sink) {
	i := 0
	jsonx.Elems(content, func(p []byte) bool {
		e := base
		e.BlockIndex = i
		i++
		pk, pd := str(jsonx.Get(p, "kind")), jsonx.Get(p, "data")
		switch {
		case pk == "text" && kind != "ToolResults":
			e.Kind, e.Role, e.Content = KindMessage, RoleUser, str(pd)
			if kind == "AssistantMessage" {
				e.Role = RoleAssistant
			}
			textEvent(out, off, e, nil)
		case pk == "toolUse" && kind == "AssistantMessage":
			name := str(jsonx.Get(pd, "name"))
			e.Kind, e.Role, e.Content = KindToolCall, RoleAssistant, toolCallContent(name, jsonx.Get(pd, "input"))
			e.Metadata = map[string]any{"tool": name, "call_id": str(jsonx.Get(pd, "toolUseId"))}
			out.event(e)
		case pk == "toolResult" && kind == "ToolResults":
			kiroToolResult(pd, off, e, out)
		default:
			out.loss(off, fmt.Sprintf("kiro %s part of a %s record not imported", strconv.Quote(pk), kind))
		}
		return true
	})
}

// kiroToolResult joins the text (and JSON, compacted) parts of a result.
func kiroToolResult(pd []byte, off int64, e Event, out *sink) {
	var texts []string
	jsonx.Elems(jsonx.Get(pd, "content"), func(c []byte) bool {
		switch str(jsonx.Get(c, "kind")) {
		case "text":
			texts = append(texts, str(jsonx.Get(c, "data")))
		case "json":
			texts = append(texts, string(jsonx.Compact(nil, jsonx.Get(c, "data"))))
		default:
			out.loss(off, "kiro non-text tool result part not imported")
		}
		return true
	})
	status := str(jsonx.Get(pd, "status"))
	e.Kind, e.Role, e.Content = KindToolResult, RoleTool, strings.Join(texts, "\n")
	e.Metadata = map[string]any{"call_id": str(jsonx.Get(pd, "toolUseId")), "is_error": status != "" && status != "success"}
	toolResultEvent(out, off, e)
}

// kiroTime reads meta.timestamp: Unix seconds (as kiro-cli 2.x writes
// them) or milliseconds (a value too large for seconds).
func kiroTime(raw []byte) time.Time {
	n, err := strconv.ParseInt(string(raw), 10, 64)
	switch {
	case err != nil || n <= 0:
		return time.Time{}
	case n > 1e11:
		return time.UnixMilli(n).UTC()
	}
	return time.Unix(n, 0).UTC()
}

// kiroV3Parser imports nothing from the v3 engine's messages.jsonl: the
// record fields are documented nowhere public, so every record is a loss
// rather than a guess.
type kiroV3Parser struct{}

func (kiroV3Parser) parse(rec []byte, off int64, out *sink) {
	t := str(jsonx.Get(jsonx.Get(rec, "payload"), "type"))
	out.loss(off, "kiro v3 record not imported (type "+strconv.Quote(t)+"; the v3 record format is undocumented)")
}
