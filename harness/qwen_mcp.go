package harness

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Qwen Code 0.24.4 takes MCP servers for one launch with --mcp-config (a
// JSON string or file path holding {"mcpServers": {...}}, or the bare
// server map), merged over the settings' servers for this run only
// (parseMcpConfig, assembleMcpServers). It is a single string option, so
// when the user gave an inline JSON value ours is merged into theirs
// (their own "ai-memory" entry wins) and a file path is left alone with a
// notice. Servers from --mcp-config carry no scope, so they are never held
// for the per-project approval that getPendingGatedMcpServers applies to
// project and workspace servers. Qwen asks before every MCP tool call
// unless the server is trusted (DiscoveredMCPTool.getDefaultPermission:
// trust in a trusted folder), and in -p a call nobody can approve is
// refused; our tools are read-only, so the run trusts the server and loads
// its tools up front (alwaysLoadTools; Qwen otherwise may defer them).
const (
	qwenMCPConfigOpt  = "--mcp-config"
	qwenMCPFileNotice = "ai-memory's MCP server was not registered this run: your --mcp-config names a file; add ai-memory to it or pass the servers inline"
)

// qwenMCPToolName is how Qwen names an MCP tool for the model:
// mcp__<server>__<tool> (generateValidName keeps names that are already
// provider-safe, [A-Za-z][A-Za-z0-9_-]*, at most 63 characters).
func qwenMCPToolName(server, tool string) string {
	return "mcp__" + server + "__" + tool
}

// registerMCP adds our server to --mcp-config, the user's or a new one.
func (qwen) registerMCP(p *Plan, args []string, srv MCPServer) ([]string, error) {
	entry := map[string]any{"command": srv.Command, "args": nonNil(srv.Args), "trust": true, "alwaysLoadTools": true}
	if len(srv.Env) > 0 {
		entry["env"] = srv.Env
	}
	i := lastFlagIndex(args, qwenMCPConfigOpt)
	if i < 0 {
		js, err := marshalJSON(map[string]any{"mcpServers": map[string]any{srv.Name: entry}})
		if err != nil {
			return nil, fmt.Errorf("encode qwen MCP config: %w", err)
		}
		return appendOptions(args, qwenMCPConfigOpt, js), nil
	}
	v, vi := flagValueAt(args, i)
	var cfg map[string]any
	if vi < 0 || !strings.HasPrefix(strings.TrimSpace(v), "{") || json.Unmarshal([]byte(v), &cfg) != nil {
		p.Notices = append(p.Notices, qwenMCPFileNotice)
		return args, nil
	}
	servers := cfg
	if m, ok := cfg["mcpServers"].(map[string]any); ok {
		servers = m
	}
	if _, ok := servers[srv.Name]; !ok {
		servers[srv.Name] = entry
	}
	js, err := marshalJSON(cfg)
	if err != nil {
		return nil, fmt.Errorf("encode qwen MCP config: %w", err)
	}
	out := append([]string(nil), args...)
	if vi == i {
		out[i] = qwenMCPConfigOpt + "=" + js
	} else {
		out[vi] = js
	}
	return out, nil
}
