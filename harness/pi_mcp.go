package harness

import (
	"fmt"
	"path/filepath"
)

// Pi 0.99.0 and later connect MCP servers from mcp.json files (user or
// project, both the user's) or from extensions calling
// pi.registerMcpServer for the current session only. So a run registers
// ours through a per-run extension file passed with -e: explicit -e paths
// load even under --no-extensions, and registrations are never saved. On
// an older Pi (0.73.1 has no MCP) the extension finds no registerMcpServer
// and does nothing, so no version probe is needed before spawn. A user's
// own --no-mcp turns Pi's MCP support off, and we add nothing then.
const (
	piExtensionOpt = "-e"
	piMCPFile      = "ai-memory-mcp.ts"
)

// piMCPToolName is how Pi names an MCP tool: mcp__<server>__<tool>, every
// character other than letters, digits and '_' replaced by '_'.
func piMCPToolName(server, tool string) string {
	return "mcp__" + codexIdent(server) + "__" + codexIdent(tool)
}

// registerMCP writes the extension and passes it with -e.
func (pi) registerMCP(plan *Plan, args []string, d Decision) ([]string, error) {
	if hasFlag(args, "--no-mcp") || d.RunDir == "" {
		return args, nil
	}
	cfg := map[string]any{"command": d.MCP.Command, "args": nonNil(d.MCP.Args), "exposure": "direct",
		"description": "this workstream's memory: earlier coding-agent sessions of this repository"}
	if len(d.MCP.Env) > 0 {
		cfg["env"] = d.MCP.Env
	}
	name, err := marshalJSON(d.MCP.Name)
	if err != nil {
		return nil, fmt.Errorf("encode pi MCP server name: %w", err)
	}
	js, err := marshalJSON(cfg)
	if err != nil {
		return nil, fmt.Errorf("encode pi MCP server: %w", err)
	}
	path := filepath.Join(d.RunDir, piMCPFile)
	plan.Files = append(plan.Files, File{Path: path, Content: piMCPExtension(name, js)})
	return appendOptions(args, piExtensionOpt, path), nil
}

// piMCPExtension is the extension's source: plain JavaScript, valid as
// TypeScript, the server config inlined as a JSON literal.
func piMCPExtension(name, config string) string {
	return "// Written by ai-memory for one run: registers `ai-memory mcp` for this session only.\n" +
		"export default function (pi: any) {\n" +
		"\tif (typeof pi.registerMcpServer !== \"function\") return; // Pi before 0.99.0 has no MCP\n" +
		"\tpi.registerMcpServer(" + name + ", " + config + ");\n" +
		"}\n"
}
