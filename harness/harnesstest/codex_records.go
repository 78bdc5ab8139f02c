package harnesstest

import (
	"encoding/json"
	"fmt"

	"github.com/google/uuid"
)

// item appends one rollout line {timestamp, type, payload}.
func (r *codexRun) item(typ string, payload map[string]any) {
	r.w.write(map[string]any{"timestamp": r.inv.now().UTC().Format("2006-01-02T15:04:05.000Z"), "type": typ, "payload": payload})
}

// meta writes session_meta, the first record of a rollout.
func (r *codexRun) meta(forkedFrom string) {
	originator := "codex-tui"
	if r.a.sub == "exec" {
		originator = "codex_exec"
	}
	p := map[string]any{
		"id": r.id, "session_id": r.id, "timestamp": r.inv.now().UTC().Format("2006-01-02T15:04:05.000Z"),
		"cwd": r.inv.cwd, "originator": originator, "cli_version": CodexVersion,
		"source": map[bool]string{true: "exec", false: "cli"}[r.a.sub == "exec"], "model_provider": "mock",
		"base_instructions": map[string]any{"text": r.base},
	}
	if forkedFrom != "" {
		p["forked_from_id"] = forkedFrom
	}
	if b := gitBranch(r.inv.cwd); b != "" {
		p["git"] = map[string]any{"branch": b}
	}
	r.item("session_meta", p)
}

// header writes the developer message (permissions, then the
// developer_instructions) and the <environment_context> user message.
func (r *codexRun) header() {
	dev := []any{inputText("<permissions instructions>\nApprovals and sandbox are set by the fake.\n</permissions instructions>")}
	if r.devInstr != "" {
		dev = append(dev, inputText(r.devInstr))
	}
	r.item("response_item", message("developer", dev))
	env := fmt.Sprintf("<environment_context>\n  <cwd>%s</cwd>\n  <shell>bash</shell>\n</environment_context>", r.inv.cwd)
	r.item("response_item", message("user", []any{inputText(env)}))
}

func inputText(s string) map[string]any { return map[string]any{"type": "input_text", "text": s} }

func message(role string, content []any) map[string]any {
	return map[string]any{"type": "message", "role": role, "content": content}
}

// codexTurn is the outcome of one turn.
type codexTurn struct {
	reply string
	tool  bool
}

// turn writes one user turn the way Codex 0.171 does (no event_msg
// user_message/agent_message any more; item_completed instead).
func (r *codexRun) turn(prompt string) codexTurn {
	r.turnNo++
	turnID := fmt.Sprintf("turn-%d-%s", r.turnNo, uuid.NewString()[:8])
	r.item("turn_context", map[string]any{"turn_id": turnID, "cwd": r.inv.cwd, "approval_policy": r.approval(),
		"sandbox_policy": map[string]any{"type": r.sandbox()}, "model": "mock-model", "summary": "auto"})
	r.item("event_msg", map[string]any{"type": "task_started", "turn_id": turnID, "model_context_window": 272000})
	r.item("response_item", message("user", []any{inputText(prompt)}))
	r.item("event_msg", completed(turnID, map[string]any{"type": "UserMessage", "id": uuid.NewString(), "content": []any{map[string]any{"type": "text", "text": prompt}}}))
	t := codexTurn{tool: wantsTool(prompt)}
	output := ""
	if t.tool {
		output = r.toolCall(turnID)
	}
	if wantsEdit(prompt) {
		r.patchCall(turnID)
	}
	t.reply = replyFor(prompt, output)
	r.item("response_item", map[string]any{"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": t.reply}}})
	r.item("event_msg", completed(turnID, map[string]any{"type": "AgentMessage", "id": uuid.NewString(), "content": []any{map[string]any{"type": "Text", "text": t.reply}}}))
	r.item("event_msg", map[string]any{"type": "token_count", "info": map[string]any{"total_token_usage": map[string]any{"input_tokens": 12 * r.turnNo, "output_tokens": 6 * r.turnNo, "total_tokens": 18 * r.turnNo}}})
	r.item("event_msg", map[string]any{"type": "task_complete", "turn_id": turnID, "last_agent_message": t.reply})
	return t
}

// toolCall writes the exec_command call and its output; returns the output.
func (r *codexRun) toolCall(turnID string) string {
	callID := "call_" + uuid.NewString()[:12]
	args, _ := json.Marshal(map[string]any{"cmd": "echo hello"})
	r.item("response_item", map[string]any{"type": "function_call", "name": "exec_command", "arguments": string(args), "call_id": callID})
	r.item("response_item", map[string]any{"type": "function_call_output", "call_id": callID, "output": "Process exited with code 0\nOutput:\nhello\n"})
	r.item("event_msg", completed(turnID, map[string]any{"type": "CommandExecution", "id": callID, "command": "echo hello", "aggregated_output": "hello\n", "exit_code": 0, "status": "completed"}))
	return "hello"
}

func completed(turnID string, item map[string]any) map[string]any {
	return map[string]any{"type": "item_completed", "turn_id": turnID, "item": item}
}

func (r *codexRun) approval() string {
	if r.a.yolo {
		return "never"
	}
	return "on-request"
}

func (r *codexRun) sandbox() string {
	if r.a.yolo {
		return "danger-full-access"
	}
	return "workspace-write"
}
