package harness

import "fmt"

// Claude Code takes MCP servers for one launch with --mcp-config (JSON
// files or strings; the option is variadic and repeatable, and its servers
// are added to the user's and project's own). --strict-mcp-config, when
// the user passes it, drops only those ambient servers: ours still loads,
// because it comes from --mcp-config like the user's own.
const (
	claudeMCPConfigOpt = "--mcp-config"
)

// claudeMCPToolName is how Claude Code names an MCP tool for the model.
func claudeMCPToolName(server, tool string) string {
	return "mcp__" + server + "__" + tool
}

// claudeMCPAllow is the permission rule that lets every tool of server run
// without a prompt: Claude asks before an MCP tool by default, and in
// print mode a call nobody can approve is refused. ai-memory's tools are
// read-only and scoped to the workstream, so the run pre-approves them.
func claudeMCPAllow(server string) string { return "mcp__" + server }

// registerMCP appends --mcp-config with srv as an inline JSON string.
// alwaysLoad declares the four small tools to the model up front: Claude
// Code 2.1.332 otherwise defers MCP tools behind its ToolSearch tool, and
// a model that has to search for the memory rarely uses it.
func (claude) registerMCP(args []string, srv MCPServer) ([]string, error) {
	entry := map[string]any{"type": "stdio", "command": srv.Command, "args": nonNil(srv.Args), "alwaysLoad": true}
	if len(srv.Env) > 0 {
		entry["env"] = srv.Env
	}
	js, err := marshalJSON(map[string]any{"mcpServers": map[string]any{srv.Name: entry}})
	if err != nil {
		return nil, fmt.Errorf("encode claude MCP config: %w", err)
	}
	return appendOptions(args, claudeMCPConfigOpt, js), nil
}

// nonNil returns s, or an empty slice for nil, so JSON says [] not null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
