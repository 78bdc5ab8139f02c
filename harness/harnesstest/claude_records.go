package harnesstest

import (
	"time"

	"github.com/google/uuid"
)

const claudeModel = "claude-opus-4-8"

// ts is a record timestamp in Claude's format.
func (r *claudeRun) ts() string {
	return r.inv.now().UTC().Format("2006-01-02T15:04:05.000Z")
}

// record appends one record as is.
func (r *claudeRun) record(rec map[string]any) { r.w.write(rec) }

// conversation appends a record with the fields every Claude conversation
// record carries, chained to the previous one by parentUuid.
func (r *claudeRun) conversation(typ string, fields map[string]any) string {
	id := uuid.NewString()
	rec := map[string]any{
		"parentUuid": nilIfEmpty(r.parent), "isSidechain": false, "userType": "external",
		"cwd": r.inv.cwd, "sessionId": r.sessionID, "version": ClaudeVersion,
		"gitBranch": r.branch, "entrypoint": r.entrypoint, "type": typ,
		"uuid": id, "timestamp": r.ts(),
	}
	for k, v := range fields {
		rec[k] = v
	}
	r.w.write(rec)
	r.parent = id
	return id
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// turn writes one prompt and the mock model's answer, with the Bash tool
// call when the prompt asks for RUN_TOOL, plus the new 2.1.332 record types
// an importer must skip. It returns the final assistant text.
func (r *claudeRun) turn(prompt string) string {
	mode := "default"
	if r.a.yolo {
		mode = "bypassPermissions"
	}
	r.conversation("user", map[string]any{
		"promptId": uuid.NewString(), "permissionMode": mode,
		"message": map[string]any{"role": "user", "content": prompt},
	})
	r.record(map[string]any{"type": "api-request", "sessionId": r.sessionID, "timestamp": r.ts(), "model": claudeModel})
	toolOutput := ""
	if wantsTool(prompt) {
		toolOutput = r.toolCall()
	}
	reply := replyFor(prompt, toolOutput)
	r.assistant(map[string]any{"type": "text", "text": reply}, "end_turn")
	r.record(map[string]any{"type": "tools-used", "sessionId": r.sessionID, "tools": toolsUsed(toolOutput)})
	return reply
}

func toolsUsed(toolOutput string) []string {
	if toolOutput == "" {
		return []string{}
	}
	return []string{"Bash"}
}

// toolCall writes the Bash tool_use and its tool_result and returns the
// tool's output.
func (r *claudeRun) toolCall() string {
	toolID := "toolu_" + shortID()
	assistantID := r.assistant(map[string]any{
		"type": "tool_use", "id": toolID, "name": "Bash",
		"input": map[string]any{"command": "echo hello", "description": "Print hello"},
	}, "tool_use")
	r.conversation("user", map[string]any{
		"message": map[string]any{"role": "user", "content": []any{map[string]any{
			"tool_use_id": toolID, "type": "tool_result", "content": "hello", "is_error": false,
		}}},
		"toolUseResult":           map[string]any{"stdout": "hello", "stderr": "", "interrupted": false, "isImage": false},
		"sourceToolAssistantUUID": assistantID,
	})
	return "hello"
}

// assistant writes an assistant record holding one content block.
func (r *claudeRun) assistant(block map[string]any, stop string) string {
	return r.conversation("assistant", map[string]any{
		"requestId": "req_" + shortID(),
		"message": map[string]any{
			"id": "msg_" + shortID(), "type": "message", "role": "assistant", "model": claudeModel,
			"content": []any{block}, "stop_reason": stop, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": 12, "output_tokens": 6, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
		},
	})
}

func shortID() string { return uuid.NewString()[:8] + uuid.NewString()[:8] }

// elapsedMs is used for durations in hook records.
func elapsedMs(start time.Time, now func() time.Time) int64 { return now().Sub(start).Milliseconds() }
