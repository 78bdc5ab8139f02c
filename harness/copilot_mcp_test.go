package harness

import (
	"encoding/json"
	"testing"
)

// Copilot gets our server as one more --additional-mcp-config value beside
// the user's, and --allow-tool=<server> so -p may call it.
func TestCopilotMCP(t *testing.T) {
	user := `{"mcpServers":{"x":{"type":"stdio","command":"x","tools":["*"]}}}`
	p := buildMCP(t, copilot{}, "", nil, "--additional-mcp-config", user, "-p", "hi")
	if n := countFlag(p.Args, copilotMCPConfigOpt); n != 2 {
		t.Fatalf("--additional-mcp-config given %d times, want the user's and ours: %q", n, p.Args)
	}
	if i := flagIndex(p.Args, copilotAllowToolOpt+"="+MCPServerName); i < 0 {
		t.Errorf("no --allow-tool=%s in %q", MCPServerName, p.Args)
	}
	v, _ := flagValueAt(p.Args, lastFlagIndex(p.Args, copilotMCPConfigOpt))
	var cfg struct {
		MCPServers map[string]struct {
			Type, Command string
			Args, Tools   []string
			Env           map[string]string
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(v), &cfg); err != nil {
		t.Fatalf("ours is not JSON: %v: %s", err, v)
	}
	e := cfg.MCPServers[MCPServerName]
	if e.Type != "stdio" || e.Command != testMCP.Command || len(e.Tools) != 1 || e.Tools[0] != "*" || e.Env["AI_MEMORY_RUN_ID"] == "" {
		t.Errorf("entry = %+v", e)
	}
	if got := copilotMCPToolName("ai-memory", "search"); got != "ai-memory-search" {
		t.Errorf("tool name = %q", got)
	}
}
