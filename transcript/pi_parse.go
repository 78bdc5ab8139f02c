package transcript

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonl"
	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// piAbandoned returns the ids of the entries of a Pi session that are not on
// the branch in use. Pi appends every entry of every branch to one file and
// links them by parentId; the branch in use is the path from the last entry
// back to the root (what Pi itself rebuilds on resume). Entries written
// after this scan are not in the map and count as in use: they extend the
// leaf. An entry imported before the user moved to another branch stays in
// the ledger (it was the conversation at the time).
func piAbandoned(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open transcript: %w", err)
	}
	defer f.Close()
	parent := map[string]string{}
	var order []string
	br := bufio.NewReaderSize(f, 64<<10)
	var buf []byte
	for {
		line, tooLong, err := jsonl.ReadBoundedLine(br, 1<<20, buf[:0])
		buf = line[:0]
		if !tooLong && jsonx.Valid(line) {
			var v [3][]byte
			jsonx.Pick(line, piTreeKeys, v[:])
			if id := str(v[0]); id != "" && str(v[2]) != "session" {
				if _, seen := parent[id]; !seen {
					order = append(order, id)
				}
				parent[id] = str(v[1])
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read pi session tree: %w", err)
		}
	}
	if len(order) == 0 {
		return nil, nil
	}
	used := map[string]bool{}
	for id := order[len(order)-1]; id != "" && !used[id]; id = parent[id] {
		used[id] = true
	}
	abandoned := map[string]bool{}
	for _, id := range order {
		if !used[id] {
			abandoned[id] = true
		}
	}
	return abandoned, nil
}

var piTreeKeys = []string{"id", "parentId", "type"}

// piParser maps Pi entries to events. Imported: user and assistant text,
// tool calls and results, compaction and branch summaries. Not imported
// (losses): system-prompt records (Pi 1.x stores the whole prompt, with
// --append-system-prompt text such as our packet, as role "system"),
// reasoning, extension-injected custom_message entries, images, user shell
// escapes and entries on abandoned branches. Bookkeeping entries
// (model_change, thinking_level_change, label, session_info, custom, usage)
// carry no conversation and are skipped silently.
type piParser struct {
	abandoned map[string]bool
	// status takes the bash tool's framing off a result (nil: Pi's,
	// piBashStatus); a fork that frames differently sets its own.
	status func(string) (string, execReport)
}

var piTopKeys = []string{"type", "id", "timestamp", "message", "summary"}

func (p *piParser) parse(rec []byte, off int64, out *sink) {
	var f [5][]byte
	jsonx.Pick(rec, piTopKeys, f[:])
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
		piMessage(f[3], off, base, out, p.status)
	case "compaction", "branch_summary":
		base.Kind, base.Role, base.Content = KindCompaction, RoleSystem, str(f[4])
		base.Metadata = map[string]any{"pi_type": typ}
		textEvent(out, off, base, nil)
	case "custom_message":
		out.loss(off, "extension message skipped (custom_message)")
	}
}

var piMessageKeys = []string{"role", "content", "toolCallId", "toolName", "isError"}

func piMessage(msg []byte, off int64, base Event, out *sink, status func(string) (string, execReport)) {
	var f [5][]byte
	jsonx.Pick(msg, piMessageKeys, f[:])
	switch role := str(f[0]); role {
	case RoleUser, RoleAssistant:
		piBlocks(role, f[1], off, base, out)
	case "toolResult":
		text, other := blockTexts(f[1])
		if other > 0 {
			out.loss(off, "non-text tool output part skipped")
		}
		if status == nil {
			status = piBashStatus
		}
		text, rep := status(text)
		base.Kind, base.Role, base.Content = KindToolResult, RoleTool, text
		base.Metadata = map[string]any{"call_id": str(f[2]), "tool": str(f[3]), "is_error": jsonx.Bool(f[4])}
		rep.apply(base.Metadata)
		toolResultEvent(out, off, base)
	case "system":
		out.loss(off, "system prompt skipped (system)")
	case "bashExecution":
		out.loss(off, "user shell command skipped (bashExecution)")
	default:
		out.loss(off, "message skipped ("+role+")")
	}
}

var piBlockKeys = []string{"type", "text", "name", "arguments", "id"}

// piBlocks imports a user or assistant content: a string or an array of
// text, thinking, toolCall and image blocks.
func piBlocks(role string, content []byte, off int64, base Event, out *sink) {
	if s, ok := jsonx.String(content); ok {
		e := base
		e.Kind, e.Role, e.Content = KindMessage, role, s
		textEvent(out, off, e, nil)
		return
	}
	i := 0
	jsonx.Elems(content, func(b []byte) bool {
		var f [5][]byte
		jsonx.Pick(b, piBlockKeys, f[:])
		e := base
		e.BlockIndex = i
		i++
		switch typ := str(f[0]); typ {
		case "text":
			e.Kind, e.Role, e.Content = KindMessage, role, str(f[1])
			textEvent(out, off, e, nil)
		case "toolCall":
			name := str(f[2])
			e.Kind, e.Role, e.Content = KindToolCall, RoleAssistant, toolCallContent(name, f[3])
			e.Metadata = map[string]any{"tool": name, "call_id": str(f[4])}
			out.event(e)
		case "thinking":
			out.loss(off, "reasoning skipped")
		default:
			out.loss(off, typ+" part skipped")
		}
		return true
	})
}

// piBashStatus takes off what Pi's bash tool appends to a command's output:
// "Command exited with code N" after a failure, and a truncation notice
// ("[Showing lines A-B of N. Full output: <file>]"), each after a blank
// line (alone when there was no output).
func piBashStatus(text string) (string, execReport) {
	var rep execReport
	body := text
	if head, last := piLastParagraph(body); strings.HasPrefix(last, "Command exited with code ") {
		if !rep.setExit(strings.TrimPrefix(last, "Command exited with code ")) {
			return text, execReport{}
		}
		body = head
	}
	if head, last := piLastParagraph(body); strings.HasPrefix(last, "[Showing ") && strings.Contains(last, "Full output: ") && strings.HasSuffix(last, "]") {
		rep.truncated = true
		body = head
	}
	if body == text {
		return text, rep
	}
	return outputOrNone(body), rep
}

// piLastParagraph splits text at its last blank line ("" head and the whole
// text when there is none).
func piLastParagraph(text string) (head, last string) {
	if i := strings.LastIndex(text, "\n\n"); i >= 0 {
		return text[:i], text[i+2:]
	}
	return "", text
}
