package transcript

import (
	"strconv"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// kimiParser maps Kimi Code wire records to events. The conversation is
// read from agent.message.appended (the user's prompts, assistant text and
// tool calls, tool results) and compaction summaries from
// context.append_message with origin compaction_summary. Losses: the
// system prompt (profile.bind, which holds an --agent-file body and so our
// packet, once at creation), injected context (origin injection: date and
// permission reminders), reasoning and non-text parts. Everything else
// (the loop events and turn.prompt that repeat the same conversation,
// usage, token counting, bindings) is bookkeeping, skipped silently.
// Records carry no id: the record id is a digest of the line.
type kimiParser struct{}

var kimiTopKeys = []string{"type", "message", "time"}

func (kimiParser) parse(rec []byte, off int64, out *sink) {
	var f [3][]byte
	jsonx.Pick(rec, kimiTopKeys, f[:])
	base := Event{RecordID: lineID(rec), OccurredAt: kimiTime(f[2])}
	switch str(f[0]) {
	case "agent.message.appended":
		var m [2][]byte
		jsonx.Pick(f[1], []string{"message", "meta"}, m[:])
		kimiMessage(m[0], str(jsonx.Get(jsonx.Get(m[1], "origin"), "kind")), off, base, out)
	case "context.append_message":
		switch kind := str(jsonx.Get(jsonx.Get(f[1], "origin"), "kind")); kind {
		case "compaction_summary":
			text, _ := blockTexts(jsonx.Get(f[1], "content"))
			base.Kind, base.Role, base.Content = KindCompaction, RoleSystem, text
			textEvent(out, off, base, nil)
		case "injection":
			out.loss(off, "injected context skipped (injection)")
		}
	case "profile.bind":
		out.loss(off, "system prompt skipped (profile.bind)")
	}
}

// kimiTime reads a time in Unix milliseconds.
func kimiTime(raw []byte) time.Time {
	ms, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

var kimiMessageKeys = []string{"role", "content", "toolCalls", "toolCallId"}

// kimiMessage imports one appended message: user text (origin "user" or
// none), assistant text blocks and tool calls, or a tool result.
func kimiMessage(msg []byte, origin string, off int64, base Event, out *sink) {
	var f [4][]byte
	jsonx.Pick(msg, kimiMessageKeys, f[:])
	switch role := str(f[0]); role {
	case RoleUser:
		if origin != "" && origin != "user" {
			out.loss(off, "injected context skipped ("+origin+")")
			return
		}
		kimiBlocks(RoleUser, f[1], off, base, out)
	case RoleAssistant:
		n := kimiBlocks(RoleAssistant, f[1], off, base, out)
		kimiToolCalls(f[2], n, base, out)
	case "tool":
		text, other := blockTexts(f[1])
		if other > 0 {
			out.loss(off, "non-text tool output part skipped")
		}
		text, rep := kimiShellStatus(text)
		base.Kind, base.Role, base.Content = KindToolResult, RoleTool, text
		base.Metadata = map[string]any{"call_id": str(f[3])}
		rep.apply(base.Metadata)
		toolResultEvent(out, off, base)
	default:
		out.loss(off, "message skipped ("+role+")")
	}
}

// kimiBlocks imports the text parts of a content array and returns how
// many parts it had (tool calls are numbered after them).
func kimiBlocks(role string, content []byte, off int64, base Event, out *sink) int {
	i := 0
	jsonx.Elems(content, func(b []byte) bool {
		e := base
		e.BlockIndex = i
		i++
		switch typ := str(jsonx.Get(b, "type")); typ {
		case "text":
			e.Kind, e.Role, e.Content = KindMessage, role, str(jsonx.Get(b, "text"))
			textEvent(out, off, e, nil)
		case "think", "thinking":
			out.loss(off, "reasoning skipped")
		default:
			out.loss(off, typ+" part skipped")
		}
		return true
	})
	return i
}

// kimiToolCalls imports {id, name, arguments (a JSON string)} calls.
func kimiToolCalls(calls []byte, first int, base Event, out *sink) {
	i := first
	jsonx.Elems(calls, func(b []byte) bool {
		var f [3][]byte
		jsonx.Pick(b, []string{"id", "name", "arguments"}, f[:])
		args := f[2]
		if s, ok := jsonx.String(args); ok && jsonx.Valid([]byte(s)) {
			args = []byte(s)
		}
		e := base
		e.BlockIndex = i
		i++
		name := str(f[1])
		e.Kind, e.Role, e.Content = KindToolCall, RoleAssistant, toolCallContent(name, args)
		e.Metadata = map[string]any{"tool": name, "call_id": str(f[0])}
		out.event(e)
		return true
	})
}

// Kimi Code 2.1.0's shell tool (ToolOutputAccumulator, foregroundCompletion
// Result) reports a command's end in the result text: on success the output
// alone, or "Command executed successfully." when there was none; on a
// non-zero exit the output (or "Process exited with code N" when there was
// none), a newline unless the output ended with one, and "Command failed
// with exit code: N.". The output keeps its last newline (whether Kimi
// added it cannot be told).
const (
	kimiFailed    = "Command failed with exit code: "
	kimiNoOutput  = "Process exited with code "
	kimiSucceeded = "Command executed successfully."
)

// kimiShellStatus takes that report off into exit_code.
func kimiShellStatus(text string) (string, execReport) {
	var rep execReport
	if text == kimiSucceeded {
		rep.setExit("0")
		return noOutput, rep
	}
	head, last := "", text
	if i := strings.LastIndexByte(text, '\n'); i >= 0 {
		head, last = text[:i+1], text[i+1:]
	}
	code, ok := strings.CutPrefix(last, kimiFailed)
	if !ok || !strings.HasSuffix(code, ".") || !rep.setExit(strings.TrimSuffix(code, ".")) {
		return text, execReport{}
	}
	if head == kimiNoOutput+strings.TrimSuffix(code, ".")+"\n" {
		head = ""
	}
	return outputOrNone(head), rep
}
