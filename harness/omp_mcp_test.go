package harness

import (
	"path/filepath"
	"reflect"
	"testing"
)

// OMP gets a per-run plugin directory holding .mcp.json, passed with
// --plugin-dir before the prompt.
func TestOmpMCP(t *testing.T) {
	p := buildMCP(t, omp{}, "", nil, "-p", "hi")
	dir := filepath.Join("/run/r1", MCPServerName)
	want := []string{"-p", "hi", ompPluginDirOpt, dir}
	if !reflect.DeepEqual(p.Args, want) {
		t.Errorf("Args = %q, want %q", p.Args, want)
	}
	if len(p.Files) != 1 || p.Files[0].Path != filepath.Join(dir, ompMCPFile) {
		t.Fatalf("Files = %+v", p.Files)
	}
	for _, tc := range []struct{ server, tool, want string }{
		{"ai-memory", "search", "mcp__ai_memory_ai_memory_search"},
		{"ai-memory", "read_events", "mcp__ai_memory_ai_memory_read_events"},
		{"x", "x_find", "mcp__x_x_x_find"},
		{"Srv", "srv_srv_go", "mcp__srv_srv_go"}, // the redundant server prefix is stripped,
	} {
		if got := ompMCPToolName(tc.server, tc.tool); got != tc.want {
			t.Errorf("ompMCPToolName(%q, %q) = %q, want %q", tc.server, tc.tool, got, tc.want)
		}
	}
}
