package harness

import "fmt"

// GitHub Copilot CLI 1.0.102 takes MCP servers for one launch with
// --additional-mcp-config <json|@file> ("can be used multiple times;
// augments config from ~/.copilot/mcp-config.json for this session",
// copilot --help), so ours is one more value beside the user's. Copilot
// asks before a tool it has no permission rule for, and in -p nobody can
// answer; `--allow-tool <server>` ("all tools from that server", copilot
// help permissions) pre-approves ours, which are read-only. --allow-tool
// takes several values, so it is given in the --opt=value form that ends
// at one.
const (
	copilotMCPConfigOpt = "--additional-mcp-config"
	copilotAllowToolOpt = "--allow-tool"
)

// copilotMCPToolName is how Copilot names an MCP tool for the model:
// <server>-<tool> (its built-in GitHub server's tools are
// github-mcp-server-<tool>).
func copilotMCPToolName(server, tool string) string {
	return server + "-" + tool
}

// registerMCP appends our server and the rule that approves its tools.
// The entry has the shape Copilot writes for a stdio server (type stdio,
// tools ["*"]: every tool of the server is offered).
func (copilot) registerMCP(args []string, srv MCPServer) ([]string, error) {
	entry := map[string]any{"type": "stdio", "command": srv.Command, "args": nonNil(srv.Args), "tools": []string{"*"}}
	if len(srv.Env) > 0 {
		entry["env"] = srv.Env
	}
	js, err := marshalJSON(map[string]any{"mcpServers": map[string]any{srv.Name: entry}})
	if err != nil {
		return nil, fmt.Errorf("encode copilot MCP config: %w", err)
	}
	return appendOptions(args, copilotMCPConfigOpt, js, copilotAllowToolOpt+"="+srv.Name), nil
}
