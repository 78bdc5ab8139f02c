package harnesstest

import (
	"strings"

	"github.com/google/uuid"
)

// wantsEdit: a prompt containing EDIT_TOOL makes the fake Codex edit a file
// with apply_patch, so read models can be tested on the files a session
// touched.
func wantsEdit(prompt string) bool { return strings.Contains(prompt, "EDIT_TOOL") }

// patchCall writes an apply_patch custom tool call updating parser.go and
// adding parser_test.go, and its output.
func (r *codexRun) patchCall(turnID string) {
	callID := "call_" + uuid.NewString()[:12]
	patch := "*** Begin Patch\n*** Update File: parser.go\n@@\n-package old\n+package parser\n*** Add File: parser_test.go\n+package parser\n*** End Patch\n"
	r.item("response_item", map[string]any{"type": "custom_tool_call", "name": "apply_patch", "input": patch, "call_id": callID, "status": "completed"})
	r.item("response_item", map[string]any{"type": "custom_tool_call_output", "call_id": callID, "output": "Success. Updated the following files:\nM parser.go\nA parser_test.go\n"})
}
