package main

import (
	"encoding/json"
	"net/http"
)

// writeAnthropic answers a Messages API request, streamed or as one JSON
// message, with either one text block or one tool_use block.
func writeAnthropic(w http.ResponseWriter, c conversation, rep reply, body []byte) error {
	msgID := stableID("msg_mock_", body)
	block, stop := anthropicBlock(rep, body)
	usage := map[string]any{
		"input_tokens": estimateTokens(len(body)), "output_tokens": outputTokens(rep),
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
	}
	msg := map[string]any{
		"id": msgID, "type": "message", "role": "assistant", "model": modelOr(c),
		"content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
	}
	if !c.Stream {
		writeJSON(w, msg)
		return nil
	}
	s := newSSE(w)
	msg["content"], msg["stop_reason"] = []any{}, nil
	s.event("message_start", map[string]any{"type": "message_start", "message": msg})
	streamAnthropicBlock(s, block)
	s.event("message_delta", map[string]any{
		"type":  "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": outputTokens(rep)},
	})
	s.event("message_stop", map[string]any{"type": "message_stop"})
	return s.err
}

// anthropicBlock returns the complete content block and the stop reason.
func anthropicBlock(rep reply, body []byte) (map[string]any, string) {
	if rep.Call == nil {
		return map[string]any{"type": "text", "text": rep.Text}, "end_turn"
	}
	return map[string]any{
		"type": "tool_use", "id": stableID("toolu_mock_", body),
		"name": rep.Call.Name, "input": json.RawMessage(rep.Call.Arguments),
	}, "tool_use"
}

// streamAnthropicBlock sends the block as start (empty), one delta, stop.
func streamAnthropicBlock(s *sse, block map[string]any) {
	start := map[string]any{}
	var delta map[string]any
	for k, v := range block {
		start[k] = v
	}
	if block["type"] == "text" {
		start["text"] = ""
		delta = map[string]any{"type": "text_delta", "text": block["text"]}
	} else {
		start["input"] = map[string]any{}
		delta = map[string]any{"type": "input_json_delta", "partial_json": string(block["input"].(json.RawMessage))}
	}
	s.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": start})
	s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": delta})
	s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
}

func outputTokens(rep reply) int {
	if rep.Call != nil {
		return estimateTokens(len(rep.Call.Arguments))
	}
	return estimateTokens(len(rep.Text))
}
