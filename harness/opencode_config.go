package harness

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// OpenCodeConfigContent returns the OPENCODE_CONFIG_CONTENT value that adds
// packetPath to OpenCode's instructions while keeping everything the user
// already put in that variable (user, "" when unset). OpenCode reads each
// instructions entry as a file and sends it in the system prompt, fresh and
// resumed; its own config files still apply, because this inline config is
// merged after them with arrays concatenated.
//
// The user's value must be a JSON object whose instructions, if present, is
// an array of strings; anything else is an error saying what to fix, and the
// caller then delivers nothing rather than replace the user's config. The
// result has sorted keys (deterministic); other members are kept as they
// were, compacted.
func OpenCodeConfigContent(user, packetPath string) (string, error) {
	return openCodeConfig(user, packetPath, nil)
}

// openCodeConfig is OpenCodeConfigContent for the packet file (none when
// packetPath is "") and the MCP server srv (none when nil), which goes in
// the config's "mcp" object as a local server. A server of the same name
// the user already put in the variable is kept: theirs wins.
func openCodeConfig(user, packetPath string, srv *MCPServer) (string, error) {
	cfg := map[string]json.RawMessage{}
	if strings.TrimSpace(user) != "" {
		if err := json.Unmarshal([]byte(user), &cfg); err != nil || cfg == nil {
			return "", fmt.Errorf("%s is not a JSON object; fix or unset it to get the handoff", EnvOpenCodeConfigContent)
		}
	}
	if packetPath != "" {
		if err := addInstructions(cfg, packetPath); err != nil {
			return "", err
		}
	}
	if srv != nil {
		if err := addOpenCodeMCP(cfg, *srv); err != nil {
			return "", err
		}
	}
	out, err := json.Marshal(cfg)
	if err != nil { // cannot happen: every member is valid JSON
		return "", fmt.Errorf("encode %s: %w", EnvOpenCodeConfigContent, err)
	}
	return string(out), nil
}

// addInstructions appends packetPath to cfg's instructions array.
func addInstructions(cfg map[string]json.RawMessage, packetPath string) error {
	var instr []string
	if raw, ok := cfg["instructions"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &instr); err != nil {
			return fmt.Errorf("%s has an instructions member that is not an array of strings; fix it to get the handoff", EnvOpenCodeConfigContent)
		}
	}
	if !slices.Contains(instr, packetPath) {
		instr = append(instr, packetPath)
	}
	raw, err := json.Marshal(instr)
	if err != nil { // cannot happen for []string
		return fmt.Errorf("encode opencode instructions: %w", err)
	}
	cfg["instructions"] = raw
	return nil
}

// addOpenCodeMCP adds srv to cfg's mcp object as {type: local, command:
// [program, args...], environment, enabled}.
func addOpenCodeMCP(cfg map[string]json.RawMessage, srv MCPServer) error {
	servers := map[string]json.RawMessage{}
	if raw, ok := cfg["mcp"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &servers); err != nil || servers == nil {
			return fmt.Errorf("%s has an mcp member that is not an object; fix it to get ai-memory's MCP tools", EnvOpenCodeConfigContent)
		}
	}
	if _, theirs := servers[srv.Name]; theirs {
		return nil
	}
	entry := map[string]any{"type": "local", "command": append([]string{srv.Command}, srv.Args...), "enabled": true}
	if len(srv.Env) > 0 {
		entry["environment"] = srv.Env
	}
	raw, err := json.Marshal(entry)
	if err != nil { // cannot happen: strings only
		return fmt.Errorf("encode opencode mcp server: %w", err)
	}
	servers[srv.Name] = raw
	if raw, err = json.Marshal(servers); err != nil {
		return fmt.Errorf("encode opencode mcp: %w", err)
	}
	cfg["mcp"] = raw
	return nil
}
