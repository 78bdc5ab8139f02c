package harness

import (
	"sort"
	"strings"
)

// Codex takes MCP servers for one launch from -c overrides of
// mcp_servers.<name>.* (root options, so they reach every subcommand; ours
// go first and a user's later -c on the same key wins). Codex starts a
// server with a fixed set of its own variables (HOME, PATH, ...) plus the
// server's env table, not with its whole environment, so everything the
// server needs is passed explicitly. It asks before every MCP tool call
// unless the server's default_tools_approval_mode says otherwise, and
// under `exec` (approval policy never) an unapproved call fails; our tools
// are read-only, so the run pre-approves them.
const (
	codexMCPServers  = "mcp_servers."
	codexMCPApproval = "approve"
)

// codexMCPToolName is how Codex 0.171 shows an MCP tool to the model: in
// the namespace mcp__<server>__ (characters outside [A-Za-z0-9_] become
// '_'), so the qualified name is mcp__ai_memory__search.
func codexMCPToolName(server, tool string) string {
	return "mcp__" + codexIdent(server) + "__" + tool
}

func codexIdent(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

// registerMCP inserts the -c overrides that define srv for this run.
func (codex) registerMCP(args []string, srv MCPServer) []string {
	key := codexMCPServers + srv.Name + "."
	quoted := make([]string, len(srv.Args))
	for i, a := range srv.Args {
		quoted[i] = tomlQuote(a)
	}
	over := []string{
		"-c", key + "command=" + tomlQuote(srv.Command),
		"-c", key + "args=[" + strings.Join(quoted, ", ") + "]",
	}
	if len(srv.Env) > 0 {
		over = append(over, "-c", key+"env="+tomlInlineTable(srv.Env))
	}
	over = append(over, "-c", key+"default_tools_approval_mode="+tomlQuote(codexMCPApproval))
	return insertAt(args, 0, over...)
}

// tomlInlineTable encodes m as a TOML inline table with sorted, quoted keys.
func tomlInlineTable(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = tomlQuote(k) + " = " + tomlQuote(m[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
