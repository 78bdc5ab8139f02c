package harnesstest

import (
	"strings"

	"github.com/google/uuid"
)

// stamp is a record timestamp the way Gemini writes it (UTC, ms).
func (r *geminiRun) stamp() string { return r.inv.now().UTC().Format("2006-01-02T15:04:05.000Z") }

// header writes the metadata line (again on every resume), keys in the
// CLI's order.
func (r *geminiRun) header() {
	now := r.stamp()
	r.w.write(struct {
		SessionID   string `json:"sessionId"`
		ProjectHash string `json:"projectHash"`
		StartTime   string `json:"startTime"`
		LastUpdated string `json:"lastUpdated"`
		Kind        string `json:"kind"`
	}{r.id, GeminiProjectHash(r.inv.cwd), now, now, "main"})
}

// sessionContext is the injected first user message (date, OS, tree).
func (r *geminiRun) sessionContext() map[string]any {
	text := "<session_context>\nThis is the Gemini CLI (fake). We are setting up the context for our chat.\n- **Workspace Directories:**\n  - " + r.inv.cwd + "\n</session_context>"
	return map[string]any{"id": "d04923d38bb0f6017037e74183378ef4", "timestamp": r.stamp(), "type": "user",
		"content": []any{map[string]any{"text": text}}}
}

// message appends a message record followed by its lastUpdated patch.
func (r *geminiRun) message(m map[string]any) {
	r.w.write(m)
	r.w.write(map[string]any{"$set": map[string]any{"lastUpdated": r.stamp()}})
}

// turn writes one exchange like 0.61.0: the user message; for RUN_TOOL a
// gemini message written first without and then again (same id) with its
// toolCalls and their result, then the result as a user functionResponse
// message; then the answer.
func (r *geminiRun) turn(prompt string) string {
	r.message(map[string]any{"id": uuid.NewString(), "timestamp": r.stamp(), "type": "user",
		"content": []any{map[string]any{"text": prompt}}})
	output := ""
	if wantsTool(prompt) {
		output = r.toolCall()
	}
	reply := replyFor(prompt, output)
	r.message(r.geminiMessage(uuid.NewString(), reply))
	return reply
}

// toolCall writes the superseded gemini message with one shell call and
// returns the tool's output.
func (r *geminiRun) toolCall() string {
	const output = "Output: hello"
	callID := "run_shell_command__call_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:24]
	resp := map[string]any{"functionResponse": map[string]any{"id": callID, "name": "run_shell_command",
		"response": map[string]any{"output": output}}}
	id := uuid.NewString()
	m := r.geminiMessage(id, "")
	r.message(m)
	m = r.geminiMessage(id, "")
	m["toolCalls"] = []any{map[string]any{"id": callID, "name": "run_shell_command",
		"args":   map[string]any{"command": "echo hello", "description": "Print hello"},
		"result": []any{resp}, "status": "success", "timestamp": r.stamp(), "resultDisplay": "hello",
		"description": "echo hello", "displayName": "Shell", "renderOutputAsMarkdown": false}}
	r.w.write(m)
	r.message(map[string]any{"id": uuid.NewString(), "timestamp": r.stamp(), "type": "user", "content": []any{resp}})
	return output
}

func (r *geminiRun) geminiMessage(id, text string) map[string]any {
	return map[string]any{"id": id, "timestamp": r.stamp(), "type": "gemini", "content": text,
		"thoughts": []any{}, "model": "gemini-2.5-pro",
		"tokens": map[string]any{"input": 100, "output": 10, "cached": 0, "thoughts": 0, "tool": 0, "total": 110}}
}
