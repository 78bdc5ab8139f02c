package launcher

import (
	"context"
	"reflect"
	"testing"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/internal/testledger"
	"github.com/ai-memory/ai-memory/ledger"
)

func TestMCPServerFor(t *testing.T) {
	db, err := ledger.Open(context.Background(), testledger.Where(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	named := func(server, tool string) string { return server + "." + tool }
	tests := []struct {
		name   string
		namer  func(string, string) string
		noMCP  bool
		env    string
		self   string
		wantOn bool
	}{
		{name: "On", namer: named, self: "/bin/ai-memory", wantOn: true},
		{name: "EnvOneStaysOn", namer: named, env: "1", self: "/bin/ai-memory", wantOn: true},
		{name: "HarnessCannot", self: "/bin/ai-memory"},
		{name: "NoMCPFlag", namer: named, noMCP: true, self: "/bin/ai-memory"},
		{name: "EnvZero", namer: named, env: "0", self: "/bin/ai-memory"},
		{name: "EnvOff", namer: named, env: " OFF ", self: "/bin/ai-memory"},
		{name: "EnvFalse", namer: named, env: "false", self: "/bin/ai-memory"},
		{name: "UnknownSelf", namer: named},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &launch{
				o:   Options{NoMCP: tt.noMCP},
				env: Env{Self: tt.self, Getenv: func(k string) string { return map[string]string{EnvMCP: tt.env}[k] }},
				h:   harness.Descriptor{MCPToolName: tt.namer},
				db:  db, ws: ledger.Workstream{ID: "ws-1"}, run: ledger.Run{ID: "run-1"},
			}
			l.mcp = l.mcpServer()
			if (l.mcp != nil) != tt.wantOn {
				t.Fatalf("server = %+v, want registered %v", l.mcp, tt.wantOn)
			}
			if !tt.wantOn {
				if got := l.mcpToolName("search"); got != "" {
					t.Errorf("tool name without a server = %q", got)
				}
				return
			}
			want := harness.MCPServer{Name: harness.MCPServerName, Command: "/bin/ai-memory",
				Args: []string{"mcp", "--workstream-id", "ws-1"},
				Env:  map[string]string{"AI_MEMORY_HOME": db.Home(), "AI_MEMORY_RUN_ID": "run-1", "AI_MEMORY_WORKSTREAM_ID": "ws-1"}}
			if !reflect.DeepEqual(*l.mcp, want) {
				t.Errorf("server = %+v, want %+v", *l.mcp, want)
			}
			if got := l.mcpToolName("search"); got != "ai-memory.search" {
				t.Errorf("tool name = %q", got)
			}
		})
	}
}
