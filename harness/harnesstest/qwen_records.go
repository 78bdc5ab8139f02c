package harnesstest

import (
	"strings"

	"github.com/google/uuid"
)

// record appends one chat record the way Qwen 0.24.4 writes it: every
// record carries uuid, parentUuid (the previous record), sessionId,
// timestamp, type, provenance, cwd, version and gitBranch.
func (r *qwenRun) record(typ, provenance string, fields map[string]any) {
	id := uuid.NewString()
	rec := map[string]any{"uuid": id, "sessionId": r.id,
		"timestamp": r.inv.now().UTC().Format("2006-01-02T15:04:05.000Z"), "type": typ, "provenance": provenance,
		"cwd": r.inv.cwd, "version": QwenVersion, "gitBranch": "main"}
	if r.last == "" {
		rec["parentUuid"] = nil
	} else {
		rec["parentUuid"] = r.last
	}
	for k, v := range fields {
		rec[k] = v
	}
	r.w.write(rec)
	r.last = id
}

func (r *qwenRun) system(subtype string, payload map[string]any) {
	r.record("system", "system", map[string]any{"subtype": subtype, "systemPayload": payload})
}

func (r *qwenRun) model(parts ...any) {
	r.system("ui_telemetry", map[string]any{"uiEvent": map[string]any{"event.name": "qwen-code.api_response", "model": "mock-model", "status_code": 200}})
	r.record("assistant", "assistant_output", map[string]any{"model": "mock-model",
		"message": map[string]any{"role": "model", "parts": parts}})
}

// turn writes one user turn and returns the reply; RUN_TOOL makes one
// run_shell_command call first. (The real CLI offers no shell tool in
// print mode without --yolo; the fake always does, so that the shared
// scenarios see a tool call in every harness.)
func (r *qwenRun) turn(prompt string) string {
	r.record("user", "real_user", map[string]any{"message": map[string]any{"role": "user", "parts": []any{map[string]any{"text": prompt}}}})
	r.system("attribution_snapshot", map[string]any{"snapshot": map[string]any{"type": "attribution-snapshot", "version": 1, "surface": "cli"}})
	output := ""
	if wantsTool(prompt) {
		callID := "call_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:24]
		args := map[string]any{"command": "echo hello", "description": "Print hello"}
		r.model(map[string]any{"functionCall": map[string]any{"id": callID, "name": "run_shell_command", "args": args}})
		block := "Command: echo hello\nDirectory: (root)\nOutput: hello\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: (none)"
		r.record("tool_result", "tool_result", map[string]any{
			"message": map[string]any{"role": "user", "parts": []any{map[string]any{"functionResponse": map[string]any{
				"id": callID, "name": "run_shell_command", "response": map[string]any{"output": block}}}}},
			"toolCallResult": map[string]any{"callId": callID, "status": "success"}})
		output = "hello"
	}
	reply := replyFor(prompt, output)
	r.model(map[string]any{"text": reply})
	return reply
}
