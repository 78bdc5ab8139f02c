package main

import "strings"

// packetPrefix starts every ai-memory handoff packet. The mock must never
// answer the packet itself, only the user's own prompt, so that a test can
// tell "the packet arrived" apart from "the user said something".
const packetPrefix = "<!-- ai-memory:packet:"

// tool is one tool the request offers to the model. Namespace is the
// Responses namespace holding it ("" at top level): Codex offers each MCP
// server's tools as one namespace.
type tool struct {
	Namespace string
	Name      string
	Schema    map[string]any
}

// conversation is the wire-independent view of a model request that the
// reply rule needs.
type conversation struct {
	Model      string
	Stream     bool
	UserText   string  // last real user text (see isRealUserText)
	ToolResult *string // set when the last input item is a tool result
	Tools      []tool
	Structured bool           // the request asks for JSON output
	Schema     map[string]any // JSON schema of that output, if given
}

// isRealUserText skips harness-injected blocks such as <system-reminder>,
// <environment_context> and handoff packets, which all start with '<'.
func isRealUserText(s string) bool {
	t := strings.TrimSpace(s)
	return t != "" && !strings.HasPrefix(t, "<") && !strings.HasPrefix(t, packetPrefix)
}

// leadingContextTags are blocks a harness puts in front of the user's own
// words inside the same text (GitHub Copilot CLI sends
// "<current_datetime>…</current_datetime>\n\n<prompt>"): dropped, so the
// reply quotes the prompt.
var leadingContextTags = []string{"current_datetime"}

// stripLeadingContext removes one leading known context block.
func stripLeadingContext(s string) string {
	t := strings.TrimSpace(s)
	for _, tag := range leadingContextTags {
		open, end := "<"+tag+">", "</"+tag+">"
		if !strings.HasPrefix(t, open) {
			continue
		}
		if i := strings.Index(t, end); i >= 0 {
			if rest := strings.TrimSpace(t[i+len(end):]); rest != "" {
				return rest
			}
		}
	}
	return s
}

// parseAnthropic reads a Messages API request.
func parseAnthropic(body map[string]any) conversation {
	c := conversation{Model: str(body["model"]), Stream: boolean(body["stream"])}
	msgs := list(body["messages"])
	for _, m := range msgs {
		if str(obj(m)["role"]) == "user" {
			c.noteUserTexts(textsOf(obj(m)["content"]))
		}
	}
	if n := len(msgs); n > 0 && str(obj(msgs[n-1])["role"]) == "user" {
		c.ToolResult = lastBlockOfType(obj(msgs[n-1])["content"], "tool_result")
	}
	for _, t := range list(body["tools"]) {
		if name := str(obj(t)["name"]); name != "" {
			c.Tools = append(c.Tools, tool{Name: name, Schema: obj(obj(t)["input_schema"])})
		}
	}
	c.noteFormat(obj(obj(body["output_config"])["format"]))
	c.noteFormat(obj(body["output_format"])) // older beta spelling
	return c
}

// parseResponses reads an OpenAI Responses API request.
func parseResponses(body map[string]any) conversation {
	c := conversation{Model: str(body["model"]), Stream: boolean(body["stream"])}
	if s, ok := body["input"].(string); ok {
		c.noteUserTexts([]string{s})
	}
	items := list(body["input"])
	for _, it := range items {
		m := obj(it)
		if (str(m["type"]) == "message" || str(m["type"]) == "") && str(m["role"]) == "user" {
			c.noteUserTexts(textsOf(m["content"]))
		}
	}
	if n := len(items); n > 0 {
		last := obj(items[n-1])
		if strings.HasSuffix(str(last["type"]), "call_output") {
			r := strings.Join(textsOf(last["output"]), "\n")
			c.ToolResult = &r
		}
	}
	c.Tools = responsesTools(list(body["tools"]), "")
	c.noteFormat(obj(obj(body["text"])["format"]))
	return c
}

// responsesTools lists the function tools of a Responses tools array,
// descending into namespaces.
func responsesTools(items []any, namespace string) []tool {
	var out []tool
	for _, t := range items {
		m := obj(t)
		switch str(m["type"]) {
		case "function":
			if str(m["name"]) != "" {
				out = append(out, tool{Namespace: namespace, Name: str(m["name"]), Schema: obj(m["parameters"])})
			}
		case "namespace":
			out = append(out, responsesTools(list(m["tools"]), str(m["name"]))...)
		}
	}
	return out
}

// parseChat reads an OpenAI Chat Completions request.
func parseChat(body map[string]any) conversation {
	c := conversation{Model: str(body["model"]), Stream: boolean(body["stream"])}
	msgs := list(body["messages"])
	for _, m := range msgs {
		if str(obj(m)["role"]) == "user" {
			c.noteUserTexts(textsOf(obj(m)["content"]))
		}
	}
	if n := len(msgs); n > 0 && str(obj(msgs[n-1])["role"]) == "tool" {
		r := strings.Join(textsOf(obj(msgs[n-1])["content"]), "\n")
		c.ToolResult = &r
	}
	for _, t := range list(body["tools"]) {
		fn := obj(obj(t)["function"])
		if name := str(fn["name"]); name != "" {
			c.Tools = append(c.Tools, tool{Name: name, Schema: obj(fn["parameters"])})
		}
	}
	rf := obj(body["response_format"])
	switch str(rf["type"]) {
	case "json_schema":
		c.Structured, c.Schema = true, obj(obj(rf["json_schema"])["schema"])
	case "json_object":
		c.Structured = true
	}
	return c
}

func (c *conversation) noteUserTexts(texts []string) {
	for _, t := range texts {
		t = stripLeadingContext(t)
		if isRealUserText(t) {
			c.UserText = strings.TrimSpace(t)
		}
	}
}

// noteFormat records a {type: json_schema, schema: {...}} output format.
func (c *conversation) noteFormat(f map[string]any) {
	switch str(f["type"]) {
	case "json_schema":
		c.Structured, c.Schema = true, obj(f["schema"])
	case "json_object":
		c.Structured = true
	}
}

// textsOf returns the texts of a content value: a plain string, or a list of
// blocks carrying a "text" field (text, input_text, output_text) or nested
// "content" (tool results).
func textsOf(v any) []string {
	if s, ok := v.(string); ok {
		return []string{s}
	}
	var out []string
	for _, b := range list(v) {
		m := obj(b)
		if s, ok := m["text"].(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// lastBlockOfType returns the joined text of the last content block of the
// given type, or nil when there is none.
func lastBlockOfType(content any, typ string) *string {
	var found *string
	for _, b := range list(content) {
		m := obj(b)
		if str(m["type"]) == typ {
			s := strings.Join(textsOf(m["content"]), "\n")
			found = &s
		}
	}
	return found
}

// Small accessors for decoded JSON; a missing or mistyped field reads as zero.
func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }
func list(v any) []any         { l, _ := v.([]any); return l }
func str(v any) string         { s, _ := v.(string); return s }
func boolean(v any) bool       { b, _ := v.(bool); return b }
