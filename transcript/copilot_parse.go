package transcript

import (
	"regexp"
	"strings"
	"sync"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// copilotParser maps Copilot events to ledger events. Imported: the user's
// prompts (user.message content, not the transformedContent that carries
// the injected <current_datetime> block), assistant text and tool
// requests, tool results (tool.execution_complete) and compaction
// summaries. Losses: the system prompt (system.message, which holds the
// custom instructions and so our packet, once per run when it changed),
// hook output (hook.end: a sessionStart hook's additionalContext),
// reasoning, skill context and system notifications injected into the
// conversation. Bookkeeping events (session.*, assistant.turn_*, usage
// records, tool.execution_start, which repeats the tool request) carry no
// conversation and are skipped silently.
type copilotParser struct{}

var copilotTopKeys = []string{"type", "id", "timestamp", "data"}

func (copilotParser) parse(rec []byte, off int64, out *sink) {
	var f [4][]byte
	jsonx.Pick(rec, copilotTopKeys, f[:])
	base := Event{RecordID: str(f[1]), OccurredAt: parseTime(f[2])}
	if base.RecordID == "" {
		base.RecordID = lineID(rec)
	}
	data := f[3]
	switch typ := str(f[0]); typ {
	case "user.message":
		base.Kind, base.Role, base.Content = KindMessage, RoleUser, str(jsonx.Get(data, "content"))
		textEvent(out, off, base, nil)
	case "assistant.message":
		copilotAssistant(data, off, base, out)
	case "tool.execution_complete":
		copilotToolResult(data, off, base, out)
	case "session.compaction_complete":
		base.Kind, base.Role, base.Content = KindCompaction, RoleSystem, str(jsonx.Get(data, "summaryContent"))
		textEvent(out, off, base, nil)
	case "system.message":
		out.loss(off, "system prompt skipped (system.message)")
	case "hook.end":
		out.loss(off, "hook output skipped (hook.end)")
	case "assistant.reasoning":
		out.loss(off, "reasoning skipped")
	case "skill.invoked", "skill.context_delivered", "system.notification":
		out.loss(off, "injected context skipped ("+typ+")")
	}
}

var copilotAssistantKeys = []string{"content", "toolRequests", "reasoningText"}

// copilotAssistant imports the text (block 0) and each tool request
// (blocks 1..n) of one assistant.message.
func copilotAssistant(data []byte, off int64, base Event, out *sink) {
	var f [3][]byte
	jsonx.Pick(data, copilotAssistantKeys, f[:])
	if str(f[2]) != "" {
		out.loss(off, "reasoning skipped")
	}
	e := base
	e.Kind, e.Role, e.Content = KindMessage, RoleAssistant, str(f[0])
	textEvent(out, off, e, nil)
	i := 1
	jsonx.Elems(f[1], func(b []byte) bool {
		name := str(jsonx.Get(b, "name"))
		e := base
		e.BlockIndex = i
		i++
		e.Kind, e.Role, e.Content = KindToolCall, RoleAssistant, toolCallContent(name, jsonx.Get(b, "arguments"))
		e.Metadata = map[string]any{"tool": name, "call_id": str(jsonx.Get(b, "toolCallId"))}
		out.event(e)
		return true
	})
}

var copilotResultKeys = []string{"toolCallId", "success", "result", "error"}

// copilotToolResult imports a finished tool call: its result content, or
// the error message of a failed one.
func copilotToolResult(data []byte, off int64, base Event, out *sink) {
	var f [4][]byte
	jsonx.Pick(data, copilotResultKeys, f[:])
	ok := jsonx.Bool(f[1])
	text := str(jsonx.Get(f[2], "content"))
	if text == "" && !ok {
		text = str(jsonx.Get(f[3], "message"))
	}
	text, rep := copilotShellStatus(text)
	base.Kind, base.Role, base.Content = KindToolResult, RoleTool, text
	base.Metadata = map[string]any{"call_id": str(f[0]), "is_error": !ok}
	rep.apply(base.Metadata)
	toolResultEvent(out, off, base)
}

// copilotStatusLine is the status line Copilot 1.0.102's shell tool ends a
// command's output with (the CLI's own display finds it with the same
// pattern): "<shellId: N completed with exit code N>", or
// "<detached command with shellId: …>".
var copilotStatusLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^<(?:detached command with )?shellId: [^\r\n]+ completed with exit code (-?\d+)>[ \t]*$`)
})

// copilotShellStatus takes the status line off the last non-empty line
// (and a blank line before it) into exit_code.
func copilotShellStatus(text string) (string, execReport) {
	body := strings.TrimRight(text, "\n")
	i := strings.LastIndexByte(body, '\n')
	m := copilotStatusLine().FindStringSubmatch(body[i+1:])
	var rep execReport
	if m == nil || !rep.setExit(m[1]) {
		return text, execReport{}
	}
	return outputOrNone(strings.TrimSuffix(body[:max(i, 0)], "\n")), rep
}
