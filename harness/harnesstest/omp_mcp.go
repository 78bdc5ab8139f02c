package harnesstest

import (
	"os"
	"path/filepath"
)

// ompMCP reads the ai-memory server from the .mcp.json of the --plugin-dir
// roots, as OMP 18.2.3's claude-plugins provider does (the first root
// naming it wins: --plugin-dir roots come first, in order).
func ompMCP(dirs []string) []string {
	for _, dir := range dirs {
		data, err := os.ReadFile(filepath.Join(dir, ".mcp.json"))
		if err != nil {
			continue
		}
		if argv := inlineMCPServer(string(data)); argv != nil {
			return argv
		}
	}
	return nil
}
