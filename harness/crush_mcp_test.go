package harness

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// Crush gets the server as an `mcp add` line in the run's crushrc, with
// or without a packet, and the run's directory as its global config.
func TestCrushMCP(t *testing.T) {
	none := crush{readFile: func(string) ([]byte, error) { return nil, fs.ErrNotExist }}
	want := `'mcp' 'add' 'ai-memory' '--type' 'stdio' '--command' '/opt/ai memory/ai-memory' ` +
		`'--args' 'mcp' '--args' '--workstream-id' '--args' 'ws-1' ` +
		`'--env' 'AI_MEMORY_HOME' '/data/am' '--env' 'AI_MEMORY_RUN_ID' 'run-1'`
	for _, packet := range []string{"", "PACKET"} {
		p := buildMCP(t, none, packet, map[string]string{"HOME": "/h"}, "run", "hi")
		if p.Env[EnvCrushGlobalConfig] != "/run/r1" {
			t.Errorf("packet %q: Env = %v", packet, p.Env)
		}
		rc := ""
		for _, f := range p.Files {
			if f.Path == filepath.Join("/run/r1", crushRC) {
				rc = f.Content
			}
		}
		if !strings.Contains(rc, want+"\n") {
			t.Errorf("packet %q: crushrc lacks the mcp add line:\n%s", packet, rc)
		}
		if got := strings.Contains(rc, "global-context-path"); got != (packet != "") {
			t.Errorf("packet %q: context lines %v:\n%s", packet, got, rc)
		}
		if (p.Confirm != nil) != (packet != "") {
			t.Errorf("packet %q: Confirm = %v", packet, p.Confirm)
		}
	}
	if got := crushMCPToolName("ai-memory", "search"); got != "mcp_ai-memory_search" {
		t.Errorf("tool name = %q", got)
	}
}
