package harnesstest

import (
	"encoding/json"
	"strings"
)

// qwenMCP reads the ai-memory server from --mcp-config's inline JSON, in
// either shape Qwen 0.24.4 accepts: {"mcpServers": {...}} or the bare
// server map (a file path is not the launcher's and is ignored).
func qwenMCP(v string) []string {
	if !strings.HasPrefix(strings.TrimSpace(v), "{") {
		return nil
	}
	var cfg map[string]json.RawMessage
	if json.Unmarshal([]byte(v), &cfg) != nil {
		return nil
	}
	if inner, ok := cfg["mcpServers"]; ok {
		cfg = nil
		if json.Unmarshal(inner, &cfg) != nil {
			return nil
		}
	}
	var s stdioServer
	if json.Unmarshal(cfg[mcpServerName], &s) != nil {
		return nil
	}
	return s.argv()
}
