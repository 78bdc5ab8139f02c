package harness

import (
	"encoding/json"
	"strings"
	"testing"
)

// Qwen gets one --mcp-config: ours alone, ours merged into the user's
// inline JSON (their own entry wins), or none beside a file with a notice.
func TestQwenMCP(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		wantCmd string // command of the ai-memory entry in the last --mcp-config
		notice  bool
	}{
		{"alone", []string{"-p", "hi"}, testMCP.Command, false},
		{"merged", []string{"--mcp-config", `{"mcpServers":{"x":{"command":"x"}}}`, "-p", "hi"}, testMCP.Command, false},
		{"merged =", []string{`--mcp-config={"x":{"command":"x"}}`, "-p", "hi"}, testMCP.Command, false},
		{"theirs wins", []string{"--mcp-config", `{"mcpServers":{"ai-memory":{"command":"mine"}}}`, "-p", "hi"}, "mine", false},
		{"file", []string{"--mcp-config", "servers.json", "-p", "hi"}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := buildMCP(t, qwen{}, "", nil, tc.args...)
			if n := countFlag(p.Args, qwenMCPConfigOpt); n != 1 {
				t.Fatalf("--mcp-config given %d times: %q", n, p.Args)
			}
			if got := len(p.Notices) > 0; got != tc.notice {
				t.Errorf("notices = %q, want notice %v", p.Notices, tc.notice)
			}
			v, _ := flagValueAt(p.Args, lastFlagIndex(p.Args, qwenMCPConfigOpt))
			var cfg map[string]any
			_ = json.Unmarshal([]byte(v), &cfg)
			servers, ok := cfg["mcpServers"].(map[string]any)
			if !ok {
				servers = cfg
			}
			entry, _ := servers[MCPServerName].(map[string]any)
			if got, _ := entry["command"].(string); got != tc.wantCmd {
				t.Errorf("ai-memory command = %q, want %q (config %s)", got, tc.wantCmd, v)
			}
			if tc.wantCmd == testMCP.Command && (entry["trust"] != true || entry["alwaysLoadTools"] != true) {
				t.Errorf("entry must be trusted and always loaded: %v", entry)
			}
			if _, ok := servers["x"]; strings.Contains(tc.name, "merged") && !ok {
				t.Errorf("the user's server was dropped: %s", v)
			}
		})
	}
	if got := qwenMCPToolName("ai-memory", "search"); got != "mcp__ai-memory__search" {
		t.Errorf("tool name = %q", got)
	}
}

func countFlag(args []string, name string) int {
	n := 0
	for _, a := range args {
		if a == name || strings.HasPrefix(a, name+"=") {
			n++
		}
	}
	return n
}
