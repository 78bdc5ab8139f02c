package main

import (
	"encoding/json"
	"net/http"
	"strings"
)

// The Gemini API (generativelanguage, as Gemini CLI calls it through
// GOOGLE_GEMINI_BASE_URL) puts the model and the method in the path:
// POST …/models/<model>:generateContent, :streamGenerateContent?alt=sse and
// :countTokens. The body does not say whether to stream, so each method has
// its own parse function.
var geminiRoutes = []route{
	{http.MethodPost, ":streamGenerateContent", jsonHandler(parseGeminiStream, writeGemini)},
	{http.MethodPost, ":generateContent", jsonHandler(parseGemini, writeGemini)},
	{http.MethodPost, ":countTokens", geminiCountTokens},
}

// init adds the Gemini routes to the shared table; their suffixes share no
// ending with the other routes, so order does not matter.
func init() { routes = append(routes, geminiRoutes...) }

func parseGeminiStream(body map[string]any) conversation {
	c := parseGemini(body)
	c.Stream = true
	return c
}

// parseGemini reads a generateContent request: contents[] of {role, parts[]}
// where a part is {text}, {functionCall} or {functionResponse}; tools[] of
// {functionDeclarations[]}; generationConfig.responseJsonSchema (or the older
// responseSchema) with responseMimeType application/json for JSON output.
func parseGemini(body map[string]any) conversation {
	var c conversation
	contents := list(body["contents"])
	for _, m := range contents {
		if str(obj(m)["role"]) == "user" {
			c.noteUserTexts(textsOf(obj(m)["parts"]))
		}
	}
	if n := len(contents); n > 0 && str(obj(contents[n-1])["role"]) == "user" {
		c.ToolResult = geminiFunctionResponse(list(obj(contents[n-1])["parts"]))
	}
	for _, t := range list(body["tools"]) {
		for _, d := range list(obj(t)["functionDeclarations"]) {
			fd := obj(d)
			schema := obj(fd["parametersJsonSchema"])
			if schema == nil {
				schema = obj(fd["parameters"])
			}
			if name := str(fd["name"]); name != "" {
				c.Tools = append(c.Tools, tool{Name: name, Schema: lowerTypes(schema)})
			}
		}
	}
	gc := obj(body["generationConfig"])
	if str(gc["responseMimeType"]) == "application/json" {
		c.Structured = true
		c.Schema = obj(gc["responseJsonSchema"])
		if c.Schema == nil {
			c.Schema = lowerTypes(obj(gc["responseSchema"]))
		}
	}
	return c
}

// geminiFunctionResponse returns the output of the last functionResponse
// part: response.output when present (Gemini CLI's shell tool), else the
// whole response object as JSON.
func geminiFunctionResponse(parts []any) *string {
	var found *string
	for _, p := range parts {
		fr := obj(obj(p)["functionResponse"])
		if fr == nil {
			continue
		}
		resp := obj(fr["response"])
		s, ok := resp["output"].(string)
		if !ok {
			s = mustJSON(resp)
		}
		found = &s
	}
	return found
}

// lowerTypes copies an OpenAPI-style schema (responseSchema, parameters)
// with its "STRING"/"OBJECT" type names lowered to JSON Schema spelling, so
// the shared reply rule can read it.
func lowerTypes(schema map[string]any) map[string]any {
	if schema == nil {
		return nil
	}
	out := copyMap(schema)
	if t, ok := out["type"].(string); ok {
		out["type"] = strings.ToLower(t)
	}
	if props := obj(out["properties"]); props != nil {
		lp := make(map[string]any, len(props))
		for k, v := range props {
			lp[k] = lowerTypes(obj(v))
		}
		out["properties"] = lp
	}
	if items := obj(out["items"]); items != nil {
		out["items"] = lowerTypes(items)
	}
	return out
}

// writeGemini answers with one candidate holding a text part or one
// functionCall part; streamed as a single SSE chunk (data lines without
// event names, as the real API sends with alt=sse).
func writeGemini(w http.ResponseWriter, c conversation, rep reply, body []byte) error {
	var part map[string]any
	if rep.Call != nil {
		part = map[string]any{"functionCall": map[string]any{
			"id": stableID("call_mock_", body), "name": rep.Call.Name,
			"args": json.RawMessage(rep.Call.Arguments),
		}}
	} else {
		part = map[string]any{"text": rep.Text}
	}
	in, out := estimateTokens(len(body)), outputTokens(rep)
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": map[string]any{
			"promptTokenCount": in, "candidatesTokenCount": out, "totalTokenCount": in + out,
		},
		"modelVersion": mockModel, "responseId": stableID("resp_mock_", body),
	}
	if !c.Stream {
		writeJSON(w, resp)
		return nil
	}
	s := newSSE(w)
	s.event("", resp)
	return s.err
}

// geminiCountTokens answers countTokens with the size estimate.
func geminiCountTokens(w http.ResponseWriter, body []byte) (int, string) {
	n := estimateTokens(len(body))
	writeJSON(w, map[string]any{"totalTokens": n})
	return http.StatusOK, "countTokens"
}
