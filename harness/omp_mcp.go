package harness

import (
	"fmt"
	"path/filepath"
	"strings"
)

// oh-my-pi 18.2.3 loads a plugin for one run from --plugin-dir <dir>
// (repeatable; injectPluginDirRoots adds it before the user's own plugin
// roots and saves nothing). Its claude-plugins provider reads the root's
// .mcp.json ({"mcpServers": {...}}) and registers each server under
// "<plugin>:<server>", the plugin named by the directory when it has no
// manifest (buildPluginDirRoot). So a run writes <run dir>/<server>/.mcp.json
// and passes that directory. OMP's default approval mode (yolo) runs MCP
// tools without asking.
const (
	ompPluginDirOpt = "--plugin-dir"
	ompMCPFile      = ".mcp.json"
)

// ompMCPToolName is how OMP names the tool of our plugin's server for the
// model (mcp/tool-bridge.ts createMCPToolName): mcp__<server>_<tool>, each
// part lower-cased with runs of characters outside [a-z0-9_] as one '_',
// the server being "<plugin>:<server>" = "<server>:<server>".
func ompMCPToolName(server, tool string) string {
	s := ompToolNamePart(server + ":" + server)
	t := strings.TrimPrefix(ompToolNamePart(tool), s+"_")
	return "mcp__" + s + "_" + t
}

// ompToolNamePart is OMP's sanitizeMCPToolNamePart.
func ompToolNamePart(v string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(v) {
		if r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			under = false
		} else if !under {
			b.WriteByte('_')
			under = true
		}
	}
	s := b.String()
	for strings.Contains(s, "__") {
		s = strings.ReplaceAll(s, "__", "_")
	}
	return strings.Trim(s, "_")
}

// registerMCP writes the run's plugin directory and passes it.
func (omp) registerMCP(plan *Plan, args []string, d Decision) ([]string, error) {
	if d.RunDir == "" {
		return args, nil
	}
	entry := map[string]any{"command": d.MCP.Command, "args": nonNil(d.MCP.Args)}
	if len(d.MCP.Env) > 0 {
		entry["env"] = d.MCP.Env
	}
	js, err := marshalJSON(map[string]any{"mcpServers": map[string]any{d.MCP.Name: entry}})
	if err != nil {
		return nil, fmt.Errorf("encode omp MCP config: %w", err)
	}
	dir := filepath.Join(d.RunDir, d.MCP.Name)
	plan.Files = append(plan.Files, File{Path: filepath.Join(dir, ompMCPFile), Content: js + "\n"})
	return appendOptions(args, ompPluginDirOpt, dir), nil
}
