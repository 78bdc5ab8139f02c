package harnesstest

import (
	"encoding/json"
	"strings"
)

// claudeMCP reads the ai-memory server from the --mcp-config values (inline
// JSON; the launcher never passes a file), the last one naming it winning.
func claudeMCP(args []string) []string {
	a, err := parseClaudeArgs(args)
	if err != nil {
		return nil
	}
	var out []string
	for _, v := range a.mcpConfigs {
		if !strings.HasPrefix(strings.TrimSpace(v), "{") {
			continue
		}
		var cfg struct {
			MCPServers map[string]stdioServer `json:"mcpServers"`
		}
		if json.Unmarshal([]byte(v), &cfg) == nil {
			if s, ok := cfg.MCPServers[mcpServerName]; ok {
				out = s.argv()
			}
		}
	}
	return out
}
