package harnesstest

import (
	"encoding/json"
	"strings"
)

// inlineMCPServer reads the ai-memory server's argv from inline JSON in
// either shape: {"mcpServers": {...}} or the bare server map.
func inlineMCPServer(v string) []string {
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
