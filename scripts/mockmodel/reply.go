package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strings"
)

// runToolMarker in the user's text asks the mock for a shell tool call.
const runToolMarker = "RUN_TOOL"

// callToolMarker in the user's text, as "CALL_TOOL <name> <json-args>",
// asks the mock to call the named tool (an MCP tool, say) with those
// arguments when the request offers it.
const callToolMarker = "CALL_TOOL"

// toolCommand is what the requested tool call runs: harmless, read-only and
// deterministic, so harnesses run it without a permission prompt.
const toolCommand = "echo hello"

// shellToolNames lists shell-like tool names in order of preference.
var shellToolNames = []string{
	"Bash", "bash", "exec_command", "shell", "shell_command",
	"run_shell_command", "local_shell", "execute_command", "run_command",
}

// reply is the model's answer: either text or one tool call.
type reply struct {
	Text string
	Call *toolCall
}

// toolCall is a call of one offered tool with JSON-encoded arguments.
// Namespace is set for a tool offered inside a Responses namespace.
type toolCall struct {
	Namespace string
	Name      string
	Arguments string
}

// summary is the one-line description written to the request log.
func (r reply) summary() string {
	if r.Call != nil {
		return "tool_call " + r.Call.Name + " " + r.Call.Arguments
	}
	return "text " + r.Text
}

// decide applies the reply rule:
//   - last input item is a tool result R -> "TOOL_DONE: <R[:60]> | ACK: <T[:40]>"
//   - T contains "CALL_TOOL <name> <json-args>" and a tool of that name is
//     offered (see namedTool) -> call it with those arguments ({} if none)
//   - T contains RUN_TOOL and a shell tool is offered -> call it with "echo hello"
//   - otherwise -> "ACK: <T[:40]>"
//
// Structured-output requests get the text inside a JSON object that fits
// the requested schema.
func decide(c conversation) reply {
	var text string
	switch {
	case c.ToolResult != nil:
		text = "TOOL_DONE: " + clip(oneLine(toolOutput(*c.ToolResult)), 60) + " | ACK: " + clip(c.UserText, 40)
	case strings.Contains(c.UserText, callToolMarker):
		if call, ok := namedCall(c.UserText, c.Tools); ok {
			return reply{Call: call}
		}
		text = "ACK: " + clip(c.UserText, 40)
	case strings.Contains(c.UserText, runToolMarker):
		if t, ok := shellTool(c.Tools); ok {
			return reply{Call: &toolCall{Name: t.Name, Arguments: shellArguments(t.Schema)}}
		}
		fallthrough
	default:
		text = "ACK: " + clip(c.UserText, 40)
	}
	if c.Structured {
		text = structuredText(c.Schema, text)
	}
	return reply{Text: text}
}

// namedCall reads "CALL_TOOL <name> <json-args>" from text and finds the
// tool among those offered: its name, its namespace + "__" + name, or a
// name ending in "__<name>" (so "search" finds Claude's
// mcp__ai-memory__search and Codex's search in namespace mcp__ai_memory).
// The arguments are the one JSON object after the name, {} when absent or
// not an object.
func namedCall(text string, tools []tool) (*toolCall, bool) {
	_, rest, _ := strings.Cut(text, callToolMarker)
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return nil, false
	}
	name := fields[0]
	args := "{}"
	after := strings.TrimSpace(rest[strings.Index(rest, name)+len(name):])
	var obj map[string]any
	if err := json.NewDecoder(strings.NewReader(after)).Decode(&obj); err == nil && obj != nil {
		args = mustJSON(obj)
	}
	for _, t := range tools {
		full := t.Name
		if t.Namespace != "" {
			full = t.Namespace + "__" + t.Name
		}
		if t.Name == name || full == name || strings.HasSuffix(full, "__"+name) {
			return &toolCall{Namespace: t.Namespace, Name: t.Name, Arguments: args}, true
		}
	}
	return nil, false
}

// shellTool picks the preferred shell-like tool among those offered.
func shellTool(tools []tool) (tool, bool) {
	for _, name := range shellToolNames {
		for _, t := range tools {
			if t.Name == name {
				return t, true
			}
		}
	}
	return tool{}, false
}

// shellArguments shapes the call's arguments from the tool's JSON schema:
// the command goes into command/cmd (string or argv array), a description
// is given when the schema has one, and other required fields get zero values.
func shellArguments(schema map[string]any) string {
	props := obj(schema["properties"])
	args := map[string]any{}
	for name, p := range props {
		switch name {
		case "command", "cmd", "commands":
			args[name] = commandValue(obj(p))
		case "description":
			args[name] = "Print hello"
		}
	}
	if len(args) == 0 || (args["command"] == nil && args["cmd"] == nil && args["commands"] == nil) {
		args["command"] = toolCommand
	}
	for _, name := range list(schema["required"]) {
		if _, ok := args[str(name)]; !ok {
			args[str(name)] = zeroValue(obj(props[str(name)]), "")
		}
	}
	return mustJSON(args)
}

func commandValue(prop map[string]any) any {
	if schemaType(prop) == "array" {
		return []string{"bash", "-lc", toolCommand}
	}
	return toolCommand
}

// structuredText wraps text in the smallest JSON value that satisfies schema.
func structuredText(schema map[string]any, text string) string {
	if len(obj(schema["properties"])) == 0 {
		return mustJSON(map[string]any{"text": text})
	}
	return mustJSON(zeroValue(schema, text))
}

// zeroValue builds a minimal value of the schema's type, putting text into
// every string it creates. Objects get their required properties (all of
// them when none are listed as required).
func zeroValue(schema map[string]any, text string) any {
	if enum := list(schema["enum"]); len(enum) > 0 {
		return enum[0]
	}
	switch schemaType(schema) {
	case "object":
		return objectValue(schema, text)
	case "array":
		return []any{}
	case "integer", "number":
		return 0
	case "boolean":
		return false
	case "null":
		return nil
	default:
		return text
	}
}

func objectValue(schema map[string]any, text string) map[string]any {
	props := obj(schema["properties"])
	names := make([]string, 0, len(props))
	for _, n := range list(schema["required"]) {
		names = append(names, str(n))
	}
	if len(names) == 0 {
		for n := range props {
			names = append(names, n)
		}
	}
	out := map[string]any{}
	for _, n := range names {
		out[n] = zeroValue(obj(props[n]), text)
	}
	return out
}

// schemaType returns the schema's type; for a union like ["string","null"]
// the first non-null member; an untyped schema with properties is an object.
func schemaType(schema map[string]any) string {
	switch t := schema["type"].(type) {
	case string:
		return t
	case []any:
		for _, m := range t {
			if s := str(m); s != "null" {
				return s
			}
		}
	}
	if schema["properties"] != nil {
		return "object"
	}
	return ""
}

// clip keeps the first n runes of s.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}

// codexOutputHeader ends the metadata Codex puts in front of a command's
// output (chunk id, wall time, exit code, token count).
const codexOutputHeader = "\nOutput:\n"

// shellOutputLine starts the output in the block the Gemini CLI and Qwen
// Code shell tools return ("Command: …\nDirectory: …\nOutput: hello\nError:
// (none)\nExit Code: 0\n…\nProcess Group PGID: 123").
const shellOutputLine = "Output: "

// shellOutputEnds are the lines that follow the output in that block.
var shellOutputEnds = []string{"\nError: ", "\nExit Code: ", "\nSignal: ", "\nProcess Group PGID: "}

// ompWallTime starts the line oh-my-pi's bash tool appends to the output
// ("hello\n\n\nWall time: 0.09 seconds").
const ompWallTime = "\nWall time: "

// shellStatusRE matches the status line GitHub Copilot CLI appends to a
// shell tool's output ("<shellId: 0 completed with exit code 0>");
// wallTimeRE the "Wall time: 0.015 seconds" line Kimi Code puts first.
var (
	shellStatusRE = regexp.MustCompile(`(?m)^<shellId: [^>]*>\s*$`)
	wallTimeRE    = regexp.MustCompile(`^\s*Wall time: [0-9.]+ seconds\s*`)
)

// toolOutput drops the metadata around a command's output (Codex's header,
// the Gemini/Qwen shell block, oh-my-pi's, Copilot's and Kimi's status
// lines), whose wall time or process group changes on every run, so that
// replies stay deterministic.
func toolOutput(r string) string {
	if i := strings.Index(r, codexOutputHeader); i >= 0 {
		return r[i+len(codexOutputHeader):]
	}
	r = wallTimeRE.ReplaceAllString(shellStatusRE.ReplaceAllString(r, ""), "")
	if i := strings.Index(r, ompWallTime); i >= 0 {
		return r[:i]
	}
	i := strings.Index(r, "\n"+shellOutputLine)
	if i < 0 {
		return r
	}
	out := r[i+1+len(shellOutputLine):]
	for _, end := range shellOutputEnds {
		if j := strings.Index(out, end); j >= 0 {
			out = out[:j]
		}
	}
	return out
}

// oneLine collapses all whitespace runs into single spaces so that tool
// output (which ends in a newline) fits a one-line answer.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// stableID derives an id from the request body: the same request always
// gets the same id, different requests practically never share one.
func stableID(prefix string, body []byte) string {
	sum := sha256.Sum256(body)
	return prefix + hex.EncodeToString(sum[:12])
}

// mustJSON encodes values built from maps, slices and scalars, which
// cannot fail; map keys come out sorted, so the output is deterministic.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("mockmodel: encode JSON: " + err.Error())
	}
	return string(b)
}
