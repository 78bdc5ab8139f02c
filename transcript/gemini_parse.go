package transcript

import (
	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"

	"crypto/sha256"
	"strconv"
	"strings"
)

// geminiMarkers are user-role texts the CLI injects rather than the person
// typed: the session context (date, OS, directory tree) and hook output.
var geminiMarkers = []string{"<session_context>", "<hook_context>"}

// geminiHookClose ends a hook context block placed before the user's own
// prompt in the same text part.
const geminiHookClose = "</hook_context>"

// geminiParser maps chat file records to events. A chat file mixes
// metadata lines ({sessionId, projectHash, ...}, written again on resume),
// {"$set": {...}} patches, {"$rewindTo": id} and message lines; the CLI
// rewrites a message by appending it again with the same id (tokens, then
// tool calls with their results, are attached after the first write), and
// the later line supersedes.
//
// Superseding lines must neither duplicate nor lose events, so every event
// id is a function of what the event is, not of where the line is: text
// blocks are keyed by message id + part index (a message's text does not
// change when it is rewritten), a tool call by its call id (block 0) and its
// result by the call id (block 1), emitted once the call has finished. A
// later version of a message therefore re-emits events the ledger already
// holds under the same deterministic ids (dropped there, and inside one
// read by fresh) and adds only what is new. The same holds across reads, so
// a resumed read needs no memory of the ids emitted before its cursor. The
// result the CLI also sends back as a user functionResponse message maps to
// the same id as the one in toolCalls, so it is not stored twice.
//
// Inside one read, fresh drops the repeats before they reach the ledger. The
// CLI only ever rewrites the newest message, and the result copy follows
// in the next one, so fresh covers the current and the previous message and
// memory stays flat however long the session is.
type geminiParser struct {
	curID     string
	cur, prev map[geminiKey]struct{}
}

// geminiKey identifies an event emitted in this read.
type geminiKey struct {
	rec   string
	block int
	kind  string
	sum   [16]byte
}

// enter notes that the lines now belong to message id.
func (p *geminiParser) enter(id string) {
	if id == p.curID && p.cur != nil {
		return
	}
	p.curID, p.prev, p.cur = id, p.cur, map[geminiKey]struct{}{}
}

// fresh reports whether this read has not yet handled the block whose raw
// JSON source is raw, and records it. Keying on the raw bytes lets a repeat
// be dropped before its text is decoded (the CLI writes the same bytes each
// time; a repeat whose bytes differ is decoded and left to the ledger's
// content-derived id).
func (p *geminiParser) fresh(rec string, block int, kind string, raw ...[]byte) bool {
	h := sha256.New()
	for _, r := range raw {
		h.Write(r)
		h.Write([]byte{0})
	}
	k := geminiKey{rec: rec, block: block, kind: kind}
	copy(k.sum[:], h.Sum(nil))
	_, inCur := p.cur[k]
	_, inPrev := p.prev[k]
	if inCur || inPrev {
		return false
	}
	if p.cur == nil {
		p.cur = map[geminiKey]struct{}{}
	}
	p.cur[k] = struct{}{}
	return true
}

var geminiKeys = []string{"id", "type", "timestamp", "content", "toolCalls", "thoughts", "tokens", "$set", "$rewindTo"}

func (p *geminiParser) parse(rec []byte, off int64, out *sink) {
	var f [9][]byte
	jsonx.Pick(rec, geminiKeys, f[:])
	switch {
	case f[8] != nil:
		out.loss(off, "rewind skipped: the user withdrew later messages; those already imported are kept")
	case f[7] != nil:
		if jsonx.Get(f[7], "messages") != nil {
			out.loss(off, "history snapshot skipped ($set.messages: injected session context and replayed messages)")
		}
	case str(f[0]) != "":
		p.message(f, off, out)
	}
}

func (p *geminiParser) message(f [9][]byte, off int64, out *sink) {
	p.enter(str(f[0]))
	base := Event{RecordID: str(f[0]), OccurredAt: parseTime(f[2])}
	switch typ := str(f[1]); typ {
	case "user":
		p.content(f[3], RoleUser, off, base, out)
	case "gemini":
		p.content(f[3], RoleAssistant, off, base, out)
		if string(f[5]) != "" && string(f[5]) != "[]" && string(f[5]) != "null" {
			out.loss(off, "thoughts skipped")
		}
		if f[6] != nil {
			out.loss(off, "token usage skipped")
		}
		i := 0
		jsonx.Elems(f[4], func(call []byte) bool {
			p.toolCall(call, i, off, base, out)
			i++
			return true
		})
	case "":
		out.loss(off, "gemini message without a type skipped")
	default:
		out.loss(off, "gemini "+typ+" message skipped")
	}
}

// content emits a message's content: a plain string (block 0) or a part
// list, where text parts are messages (block = part index), a
// functionResponse is the result of that call, and a functionCall (only in
// rewritten histories) is left to toolCalls.
func (p *geminiParser) content(raw []byte, role string, off int64, base Event, out *sink) {
	base.Kind, base.Role = KindMessage, role
	if len(raw) > 0 && raw[0] == '"' {
		p.text(raw, off, base, out)
		return
	}
	i := 0
	jsonx.Elems(raw, func(part []byte) bool {
		e := base
		e.BlockIndex = i
		i++
		switch {
		case jsonx.Get(part, "text") != nil:
			p.text(jsonx.Get(part, "text"), off, e, out)
		case jsonx.Get(part, "functionResponse") != nil:
			fr := jsonx.Get(part, "functionResponse")
			p.result(str(jsonx.Get(fr, "id")), [][]byte{jsonx.Get(fr, "response")}, false, off, base, out)
		case jsonx.Get(part, "functionCall") != nil:
		default:
			out.loss(off, "non-text part skipped")
		}
		return true
	})
}

// text strips a leading hook context block (the person's prompt follows it
// in the same part) and emits the rest through the shared text rules.
func (p *geminiParser) text(raw []byte, off int64, e Event, out *sink) {
	if !p.fresh(e.RecordID, e.BlockIndex, KindMessage, raw) {
		return
	}
	s := str(raw)
	if t := strings.TrimLeft(s, " \t\r\n"); strings.HasPrefix(t, "<hook_context>") {
		if end := strings.Index(t, geminiHookClose); end >= 0 {
			out.loss(off, "injected context skipped (<hook_context>)")
			s = strings.TrimLeft(t[end+len(geminiHookClose):], " \t\r\n")
		}
	}
	if m := injectedMarker(s, geminiMarkers); m != "" {
		out.loss(off, "injected context skipped ("+m+")")
		return
	}
	e.Content = s
	textEvent(out, off, e, nil)
}

var geminiCallKeys = []string{"id", "name", "args", "result", "status", "timestamp"}

// geminiDone are the statuses of a finished call, whose result is final.
var geminiDone = map[string]bool{"success": true, "error": true, "cancelled": true}

func (p *geminiParser) toolCall(call []byte, i int, off int64, base Event, out *sink) {
	var f [6][]byte
	jsonx.Pick(call, geminiCallKeys, f[:])
	id, name := str(f[0]), str(f[1])
	if id == "" {
		id = base.RecordID + "/call/" + strconv.Itoa(i)
	}
	if t := parseTime(f[5]); !t.IsZero() {
		base.OccurredAt = t
	}
	if p.fresh(id, 0, KindToolCall, f[1], f[2]) {
		e := base
		e.RecordID, e.Kind, e.Role, e.Content = id, KindToolCall, RoleAssistant, toolCallContent(name, f[2])
		e.Metadata = map[string]any{"tool": name, "call_id": id}
		toolResultEvent(out, off, e)
	}
	status := str(f[4])
	if !geminiDone[status] || f[3] == nil {
		return // still running: its result arrives in a later version of the message
	}
	var resps [][]byte
	jsonx.Elems(f[3], func(part []byte) bool {
		resps = append(resps, jsonx.Get(jsonx.Get(part, "functionResponse"), "response"))
		return true
	})
	p.result(id, resps, status == "error", off, base, out)
}

// result emits a tool result keyed by its call id: the responses' texts
// joined by newlines; failed when the call's status or a response says so.
func (p *geminiParser) result(callID string, resps [][]byte, failed bool, off int64, base Event, out *sink) {
	if callID == "" {
		out.loss(off, "tool result without a call id skipped")
		return
	}
	if !p.fresh(callID, 1, KindToolResult, resps...) {
		return
	}
	texts := make([]string, len(resps))
	for i, r := range resps {
		t, bad := geminiResponseText(r)
		texts[i], failed = t, failed || bad
	}
	text, rep := geminiShellReport(strings.Join(texts, "\n"))
	e := base
	e.RecordID, e.BlockIndex, e.Kind, e.Role, e.Content = callID, 1, KindToolResult, RoleTool, text
	e.Metadata = map[string]any{"call_id": callID, "is_error": failed}
	rep.apply(e.Metadata)
	toolResultEvent(out, off, e)
}

// geminiResponseText returns a functionResponse.response as text: its
// output, else its error (failed), else the object as compact JSON.
func geminiResponseText(resp []byte) (string, bool) {
	if s, ok := jsonx.String(jsonx.Get(resp, "output")); ok {
		return s, false
	}
	if e := jsonx.Get(resp, "error"); e != nil {
		if s, ok := jsonx.String(e); ok {
			return s, true
		}
		return string(jsonx.Compact(nil, e)), true
	}
	if resp == nil {
		return "", false
	}
	return string(jsonx.Compact(nil, resp)), false
}

// geminiShellTail are the report lines that may follow a shell command's
// output, in the order Gemini CLI (and Qwen Code, its fork) writes them.
var geminiShellTail = []string{"Error", "Exit Code", "Signal", "Background PIDs", "Process Group PGID"}

// geminiShellReport takes a shell tool's report apart:
//
//	[Command: <command>]        older Gemini CLI, Qwen Code
//	[Directory: <dir>]
//	Output: <output, "(empty)" when none; may span lines>
//	[Error: ...] [Exit Code: N] [Signal: S] [Background PIDs: ...] [Process Group PGID: P]
//
// Gemini CLI 0.61 wraps it in <untrusted_context> tags and writes only the
// lines that have a value; Qwen Code writes every line, "(none)" for no
// value. It returns the output and what the report said; text of another
// shape is returned whole.
func geminiShellReport(text string) (string, execReport) {
	inner := text
	if s, ok := strings.CutPrefix(inner, "<untrusted_context>\n"); ok {
		if s, ok = strings.CutSuffix(s, "\n</untrusted_context>"); ok {
			inner = s
		}
	}
	lines := strings.Split(inner, "\n")
	first := 0
	for first < len(lines)-1 && first < 2 && (strings.HasPrefix(lines[first], "Command: ") || strings.HasPrefix(lines[first], "Directory: ")) {
		first++
	}
	if !strings.HasPrefix(lines[first], "Output: ") {
		return text, execReport{}
	}
	var rep execReport
	end := len(lines)
	for k := len(geminiShellTail) - 1; k >= 0 && end-1 > first; k-- {
		value, ok := strings.CutPrefix(lines[end-1], geminiShellTail[k]+": ")
		if !ok {
			continue
		}
		end--
		geminiTailField(geminiShellTail[k], value, &rep)
	}
	out := strings.TrimPrefix(strings.Join(lines[first:end], "\n"), "Output: ")
	if out == "(empty)" {
		out = ""
	}
	return outputOrNone(out), rep
}

func geminiTailField(label, value string, rep *execReport) {
	if value == "(none)" {
		return
	}
	switch label {
	case "Error":
		rep.err = value
	case "Exit Code":
		rep.setExit(value)
	case "Signal":
		rep.signal = value
	}
}
