package harnesstest

import "encoding/json"

// opencodeMCP reads the ai-memory server from OPENCODE_CONFIG_CONTENT's mcp
// object ({"type": "local", "command": [program, args...]}).
func opencodeMCP(content string) []string {
	var cfg struct {
		MCP map[string]struct {
			Type    string   `json:"type"`
			Command []string `json:"command"`
		} `json:"mcp"`
	}
	if json.Unmarshal([]byte(content), &cfg) != nil {
		return nil
	}
	s := cfg.MCP[mcpServerName]
	if s.Type != "local" || len(s.Command) == 0 {
		return nil
	}
	return s.Command
}
