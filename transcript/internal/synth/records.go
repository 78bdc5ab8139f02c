package synth

import (
	"fmt"
	"math/rand"
	"strings"
	"time"
)

var words = strings.Fields(`the import reads transcript lines func main() { return nil } <div class="x">
	naïve café 日本語 emoji 😀 "quoted" back\slash tab	tab SELECT * FROM events WHERE id = ?; if err != nil
	ledger cursor offset checksum handoff packet worktree lease heartbeat`)

// gen draws records from one random stream.
type gen struct {
	rng *rand.Rand
	c   Claude
}

func (g gen) text(n int) string {
	var sb strings.Builder
	for sb.Len() < n {
		sb.WriteString(words[g.rng.Intn(len(words))])
		switch g.rng.Intn(12) {
		case 0:
			sb.WriteString("\n")
		case 1:
			sb.WriteString("\t")
		default:
			sb.WriteString(" ")
		}
	}
	return sb.String()
}

// size draws a text length with a long tail: median ~1 KB, p90 ~9 KB.
func (g gen) size() int {
	switch r := g.rng.Intn(100); {
	case r < 50:
		return 200 + g.rng.Intn(1000)
	case r < 90:
		return 1200 + g.rng.Intn(8000)
	default:
		return 9000 + g.rng.Intn(36000)
	}
}

// recordTime is record i's timestamp: 1.5 s apart from 2026-11-30 01:00
// UTC, as a real session's records advance (the ledger's dedupe index is
// ordered by time, so a corpus of one repeated instant would not be real).
func recordTime(i int) string {
	t := time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC).Add(time.Duration(i) * 1500 * time.Millisecond)
	return t.Format("2006-01-02T15:04:05.000Z")
}

// record returns record i: a user prompt, assistant text, a tool call, a
// tool result or a summary, in the proportions of the package comment.
func (g gen) record(i int) any {
	base := map[string]any{"parentUuid": fmt.Sprintf("p-%d", i-1), "isSidechain": false, "userType": "external",
		"cwd": g.c.Cwd, "sessionId": g.c.SessionID, "version": "2.1.332", "gitBranch": "main",
		"uuid": fmt.Sprintf("u-%d", i), "timestamp": recordTime(i)}
	switch r := g.rng.Intn(100); {
	case r < 6:
		base["type"], base["message"] = "user", map[string]any{"role": "user", "content": g.text(g.size() / 4)}
	case r < 36:
		base["type"], base["message"] = "assistant", map[string]any{"role": "assistant", "model": "claude-opus-4-8",
			"content": []any{map[string]any{"type": "text", "text": g.text(g.size())}},
			"usage":   map[string]any{"input_tokens": g.rng.Intn(9000), "output_tokens": g.rng.Intn(900)}}
	case r < 66:
		base["type"], base["message"] = "assistant", map[string]any{"role": "assistant", "content": []any{g.toolUse(i)}}
	case r < 99:
		g.toolResult(base, i)
	default:
		return map[string]any{"type": "summary", "summary": g.text(60), "leafUuid": fmt.Sprintf("u-%d", i-1)}
	}
	return base
}

// toolUse is a Bash or Edit tool_use block.
func (g gen) toolUse(i int) map[string]any {
	input := map[string]any{"command": g.text(80), "description": "run it"}
	name := "Bash"
	if g.rng.Intn(2) == 0 {
		name, input = "Edit", map[string]any{"file_path": g.c.Cwd + "/main.go",
			"old_string": g.text(g.size() / 2), "new_string": g.text(g.size() / 2)}
	}
	return map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", i), "name": name, "input": input}
}

// toolResult fills base as a tool result whose output Claude Code also
// duplicates in toolUseResult.
func (g gen) toolResult(base map[string]any, i int) {
	out := g.text(g.size() / 2)
	var content any = out
	if g.rng.Intn(2) == 0 {
		content = []any{map[string]any{"type": "text", "text": out}}
	}
	base["type"], base["message"] = "user", map[string]any{"role": "user",
		"content": []any{map[string]any{"type": "tool_result", "tool_use_id": fmt.Sprintf("toolu_%d", i-1), "content": content}}}
	base["toolUseResult"] = map[string]any{"stdout": out, "stderr": "", "interrupted": false}
}
