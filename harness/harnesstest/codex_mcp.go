package harnesstest

import (
	"encoding/json"
	"strconv"
	"strings"
)

// codexMCP reads the ai-memory server from -c mcp_servers.ai-memory.command
// and .args overrides (later ones win, as in Codex). The values are TOML; a
// basic string and an array of basic strings read as JSON here.
func codexMCP(args []string) []string {
	prefix := "mcp_servers." + mcpServerName + "."
	var s stdioServer
	for i := 0; i+1 < len(args) && args[i] != "--"; i++ {
		if args[i] != "-c" && args[i] != "--config" {
			continue
		}
		k, v, _ := strings.Cut(args[i+1], "=")
		switch k {
		case prefix + "command":
			if c, err := strconv.Unquote(v); err == nil {
				s.Command = c
			}
		case prefix + "args":
			var a []string
			if json.Unmarshal([]byte(v), &a) == nil {
				s.Args = a
			}
		}
		i++
	}
	return s.argv()
}
