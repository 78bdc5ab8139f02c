package harnesstest

import (
	"encoding/hex"
	"strings"

	"github.com/google/uuid"
)

// stamp is an entry timestamp the way Pi writes it (UTC, milliseconds).
func (r *piRun) stamp() string { return r.inv.now().UTC().Format("2006-01-02T15:04:05.000Z") }

// entry appends one tree entry linked to the current leaf and makes it the
// leaf; ids are 8 hex digits like Pi's.
func (r *piRun) entry(typ string, fields map[string]any) {
	b := uuid.New()
	id := hex.EncodeToString(b[:4])
	rec := map[string]any{"type": typ, "id": id, "timestamp": r.stamp()}
	if r.last == "" {
		rec["parentId"] = nil
	} else {
		rec["parentId"] = r.last
	}
	for k, v := range fields {
		rec[k] = v
	}
	r.w.write(rec)
	r.last = id
}

func (r *piRun) message(m map[string]any) {
	m["timestamp"] = r.inv.now().UnixMilli()
	r.entry("message", map[string]any{"message": m})
}

// systemRecord writes what Pi 1.x stores of the system prompt before a
// turn: the whole prompt the first time, afterwards a patch of the
// addendum (the --append-system-prompt text) when it changed.
func (r *piRun) systemRecord(first bool) {
	add := ""
	if r.context != "" {
		add = "<addendum>\n" + r.context + "\n</addendum>"
	}
	switch {
	case first:
		sections := map[string]any{"preamble": "You are a coding assistant running inside pi (fake).", "cwd": r.inv.cwd}
		if add != "" {
			sections["addendum"] = add
		}
		r.message(map[string]any{"role": "system", "content": "", "sections": sections, "toolsAdded": []any{"read", "bash", "edit", "write"}})
	case add != r.addend:
		var v any = add
		if add == "" {
			v = nil
		}
		r.message(map[string]any{"role": "system", "content": "", "sections": map[string]any{"addendum": v}})
	}
	r.addend, r.sawSystem = add, true
}

// turn writes one user turn and returns the reply; RUN_TOOL makes one bash
// call first.
func (r *piRun) turn(prompt string) string {
	if !r.old {
		r.systemRecord(!r.hasSystem())
	}
	r.message(map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": prompt}}})
	output := ""
	if wantsTool(prompt) {
		callID := "call_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:24]
		r.message(map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "toolCall", "id": callID, "name": "bash", "arguments": map[string]any{"command": "echo hello"}}},
			"api": "openai-completions", "provider": "mock", "model": "mock-model", "stopReason": "toolUse"})
		r.message(map[string]any{"role": "toolResult", "toolCallId": callID, "toolName": "bash", "content": []any{map[string]any{"type": "text", "text": "hello\n"}}, "isError": false})
		output = "hello"
	}
	reply := replyFor(prompt, output)
	r.message(map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": reply}},
		"api": "openai-completions", "provider": "mock", "model": "mock-model", "stopReason": "stop"})
	return reply
}

// hasSystem reports whether the session already holds a system record.
func (r *piRun) hasSystem() bool { return r.sawSystem }
