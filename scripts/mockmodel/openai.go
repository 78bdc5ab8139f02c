package main

import (
	"net/http"
	"time"
)

// writeResponses answers an OpenAI Responses API request. The streamed event
// sequence and shapes follow what Codex parses (codex-api sse/responses.rs):
// output items arrive in response.output_item.done, and the stream is only
// complete once response.completed carries the response id and usage.
func writeResponses(w http.ResponseWriter, c conversation, rep reply, body []byte) error {
	item := responsesItem(rep, body)
	resp := map[string]any{
		"id": stableID("resp_mock_", body), "object": "response",
		"created_at": time.Now().Unix(), "status": "completed", "model": modelOr(c),
		"output": []any{item}, "usage": responsesUsage(len(body), rep),
	}
	if !c.Stream {
		writeJSON(w, resp)
		return nil
	}
	s := newSSE(w)
	seq := 0
	send := func(typ string, fields map[string]any) {
		fields["type"], fields["sequence_number"] = typ, seq
		seq++
		s.event(typ, fields)
	}
	pending := copyMap(resp)
	pending["status"], pending["output"] = "in_progress", []any{}
	delete(pending, "usage")
	send("response.created", map[string]any{"response": pending})
	send("response.in_progress", map[string]any{"response": pending})
	streamResponsesItem(send, item)
	send("response.completed", map[string]any{"response": resp})
	return s.err
}

// responsesItem is the finished output item: an assistant message or a
// function call.
func responsesItem(rep reply, body []byte) map[string]any {
	if rep.Call != nil {
		item := map[string]any{
			"id": stableID("fc_mock_", body), "type": "function_call", "status": "completed",
			"name": rep.Call.Name, "arguments": rep.Call.Arguments, "call_id": stableID("call_mock_", body),
		}
		if rep.Call.Namespace != "" {
			item["namespace"] = rep.Call.Namespace
		}
		return item
	}
	return map[string]any{
		"id": stableID("msg_mock_", body), "type": "message", "status": "completed", "role": "assistant",
		"content": []any{outputText(rep.Text)},
	}
}

func outputText(text string) map[string]any {
	return map[string]any{"type": "output_text", "text": text, "annotations": []any{}}
}

// streamResponsesItem emits added -> deltas -> done for one output item.
func streamResponsesItem(send func(string, map[string]any), item map[string]any) {
	id := item["id"]
	added := copyMap(item)
	added["status"] = "in_progress"
	if item["type"] == "function_call" {
		added["arguments"] = ""
		send("response.output_item.added", map[string]any{"output_index": 0, "item": added})
		args := map[string]any{"item_id": id, "output_index": 0}
		send("response.function_call_arguments.delta", with(args, "delta", item["arguments"]))
		send("response.function_call_arguments.done", with(args, "arguments", item["arguments"]))
	} else {
		text := item["content"].([]any)[0].(map[string]any)["text"].(string)
		added["content"] = []any{}
		send("response.output_item.added", map[string]any{"output_index": 0, "item": added})
		part := map[string]any{"item_id": id, "output_index": 0, "content_index": 0}
		send("response.content_part.added", with(part, "part", outputText("")))
		send("response.output_text.delta", with(part, "delta", text))
		send("response.output_text.done", with(part, "text", text))
		send("response.content_part.done", with(part, "part", outputText(text)))
	}
	send("response.output_item.done", map[string]any{"output_index": 0, "item": item})
}

func responsesUsage(bodyLen int, rep reply) map[string]any {
	in, out := estimateTokens(bodyLen), outputTokens(rep)
	return map[string]any{
		"input_tokens": in, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": out, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
		"total_tokens": in + out,
	}
}

// writeChat answers a Chat Completions request: chunks then [DONE] when
// streamed (with a usage chunk when stream_options.include_usage would ask;
// always sent, clients ignore it otherwise), or one completion object.
func writeChat(w http.ResponseWriter, c conversation, rep reply, body []byte) error {
	id, created, model := stableID("chatcmpl-mock-", body), time.Now().Unix(), modelOr(c)
	msg, finish := chatMessage(rep, body)
	in, out := estimateTokens(len(body)), outputTokens(rep)
	usage := map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out}
	base := map[string]any{"id": id, "created": created, "model": model}
	if !c.Stream {
		writeJSON(w, with(with(with(base, "object", "chat.completion"), "usage", usage), "choices",
			[]any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}))
		return nil
	}
	s := newSSE(w)
	chunk := with(base, "object", "chat.completion.chunk")
	s.event("", with(chunk, "choices", []any{map[string]any{"index": 0, "delta": msg, "finish_reason": nil}}))
	s.event("", with(chunk, "choices", []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish}}))
	s.event("", with(with(chunk, "choices", []any{}), "usage", usage))
	s.raw("", "[DONE]")
	return s.err
}

// chatMessage is the assistant message (also used as the single stream delta).
func chatMessage(rep reply, body []byte) (map[string]any, string) {
	if rep.Call == nil {
		return map[string]any{"role": "assistant", "content": rep.Text}, "stop"
	}
	call := map[string]any{
		"index": 0, "id": stableID("call_mock_", body), "type": "function",
		"function": map[string]any{"name": rep.Call.Name, "arguments": rep.Call.Arguments},
	}
	return map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{call}}, "tool_calls"
}

// with returns a copy of m with key set to v; the stream helpers reuse
// common fields without aliasing maps that were already sent.
func with(m map[string]any, key string, v any) map[string]any {
	out := copyMap(m)
	out[key] = v
	return out
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}
