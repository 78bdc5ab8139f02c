package launcher

import (
	"strings"

	"github.com/ai-memory/ai-memory/harness"
)

// EnvMCP turns the per-run MCP registration off when "0", "false", "no"
// or "off" (the config switch beside `run --no-mcp`).
const EnvMCP = "AI_MEMORY_MCP"

// mcpDisabledByEnv reports whether AI_MEMORY_MCP turns the registration off.
func mcpDisabledByEnv(getenv func(string) string) bool {
	switch strings.ToLower(strings.TrimSpace(getenv(EnvMCP))) {
	case "0", "false", "no", "off":
		return true
	}
	return false
}

// mcpServer is `ai-memory mcp` for this launch, or nil when the harness
// cannot take an MCP server for one launch, the user turned it off, or the
// binary's own path is unknown. The scope goes in as arguments and the
// data home and run id as variables, all explicit: some harnesses start
// servers with a fixed environment.
func (l *launch) mcpServer() *harness.MCPServer {
	if l.h.MCPToolName == nil || l.o.NoMCP || mcpDisabledByEnv(l.env.Getenv) || l.env.Self == "" {
		return nil
	}
	return &harness.MCPServer{
		Name:    harness.MCPServerName,
		Command: l.env.Self,
		Args:    []string{"mcp", "--workstream-id", l.ws.ID},
		Env: map[string]string{
			"AI_MEMORY_HOME":          l.db.Home(),
			"AI_MEMORY_RUN_ID":        l.run.ID,
			"AI_MEMORY_WORKSTREAM_ID": l.ws.ID,
		},
	}
}

// mcpToolName is the name the agent sees the memory's tool under, "" when
// no server is registered. tool is one of package mcpserver's tool names
// (the layering keeps the launcher from importing it; the e2e scenario
// mcp.txtar and scripts/acceptance-mcp.sh check the names end to end).
func (l *launch) mcpToolName(tool string) string {
	if l.mcp == nil {
		return ""
	}
	return l.h.MCPToolName(l.mcp.Name, tool)
}
