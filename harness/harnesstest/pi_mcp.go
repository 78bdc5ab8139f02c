package harnesstest

import (
	"encoding/json"
	"os"
	"strings"
)

// piMCP reads the ai-memory server from the extension files passed with
// -e/--extension: the JSON config of its pi.registerMcpServer("ai-memory",
// {...}) call.
func piMCP(args []string) []string {
	call := `pi.registerMcpServer("` + mcpServerName + `", `
	var out []string
	for i := 0; i+1 < len(args) && args[i] != "--"; i++ {
		if args[i] != "-e" && args[i] != "--extension" {
			continue
		}
		data, err := os.ReadFile(args[i+1])
		i++
		if err != nil {
			continue
		}
		_, rest, ok := strings.Cut(string(data), call)
		if !ok {
			continue
		}
		var s stdioServer
		if json.NewDecoder(strings.NewReader(rest)).Decode(&s) == nil {
			out = s.argv()
		}
	}
	return out
}
