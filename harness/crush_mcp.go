package harness

import (
	"sort"
	"strings"
)

// Crush (v0.88.0 and later; 0.90.0 checked) declares MCP servers in a
// crushrc with its `mcp add` builtin (internal/shellconfig/mcp.go:
// `mcp add <name> --type stdio --command CMD --args ARG ... --env KEY
// VALUE ...`), so the run's own crushrc (crush_config.go) registers ours
// for this launch: the user's crush.json and crushrc are read as before
// and nothing of theirs is written. `crush run` approves every tool of its
// session; the TUI asks before an MCP tool as before any other.

// crushMCPToolName is how Crush names an MCP tool for the model:
// mcp_<server>_<tool> (internal/agent/tools/mcp-tools.go).
func crushMCPToolName(server, tool string) string {
	return "mcp_" + server + "_" + tool
}

// crushRCMCP writes the `mcp add` line for srv.
func crushRCMCP(b *strings.Builder, srv MCPServer) {
	words := []string{"mcp", "add", srv.Name, "--type", "stdio", "--command", srv.Command}
	for _, a := range srv.Args {
		words = append(words, "--args", a)
	}
	keys := make([]string, 0, len(srv.Env))
	for k := range srv.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		words = append(words, "--env", k, srv.Env[k])
	}
	b.WriteString(shellQuote(words) + "\n")
}
