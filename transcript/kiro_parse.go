package transcript

import (
	"fmt"
	"slices"
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

// kiroToolResult joins the text (and JSON, compacted) parts of a result;
// the shell tool's JSON report is taken apart (kiroShellReport).
func kiroToolResult(pd []byte, off int64, e Event, out *sink) {
	var texts []string
	var rep execReport
	jsonx.Elems(jsonx.Get(pd, "content"), func(c []byte) bool {
		switch str(jsonx.Get(c, "kind")) {
		case "text":
			texts = append(texts, str(jsonx.Get(c, "data")))
		case "json":
			data := jsonx.Get(c, "data")
			if t, ok := kiroShellReport(data, &rep); ok {
				texts = append(texts, t...)
				break
			}
			texts = append(texts, string(jsonx.Compact(nil, data)))
		default:
			out.loss(off, "kiro non-text tool result part not imported")
		}
		return true
	})
	status := str(jsonx.Get(pd, "status"))
	content := strings.Join(texts, "\n")
	if rep.exitCode != nil {
		content = outputOrNone(content)
	}
	e.Kind, e.Role, e.Content = KindToolResult, RoleTool, content
	e.Metadata = map[string]any{"call_id": str(jsonx.Get(pd, "toolUseId")), "is_error": status != "" && status != "success"}
	rep.apply(e.Metadata)
	toolResultEvent(out, off, e)
}

// kiroShellKeys are the keys of the report Kiro's shell tool (execute_bash,
// from Amazon Q Developer CLI) returns as a JSON part: exit_status (a
// decimal string), stdout and stderr.
var kiroShellKeys = []string{"exit_status", "stdout", "stderr"}

// kiroShellReport reads a JSON part that is such a report (an object with
// exit_status and no other keys than those) into rep, returning its
// non-empty stdout and stderr; false for any other JSON.
func kiroShellReport(data []byte, rep *execReport) ([]string, bool) {
	n := 0
	known := true
	jsonx.Fields(data, func(k, _ []byte) bool {
		n++
		known = known && slices.Contains(kiroShellKeys, string(jsonx.KeyName(k)))
		return known
	})
	var f [3][]byte
	jsonx.Pick(data, kiroShellKeys, f[:])
	code, ok := jsonx.String(f[0])
	if !known || n == 0 || !ok || rep.exitCode != nil || !rep.setExit(code) {
		return nil, false
	}
	var texts []string
	for _, v := range f[1:] {
		if s := str(v); s != "" {
			texts = append(texts, s)
		}
	}
	return texts, true
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
