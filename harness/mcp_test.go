package harness

import (
	"encoding/json"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

var testMCP = MCPServer{
	Name: MCPServerName, Command: "/opt/ai memory/ai-memory", Args: []string{"mcp", "--workstream-id", "ws-1"},
	Env: map[string]string{"AI_MEMORY_HOME": "/data/am", "AI_MEMORY_RUN_ID": "run-1"},
}

// buildMCP parses args and builds with the test server and packet.
func buildMCP(t *testing.T, pl Planner, packet string, env map[string]string, args ...string) Plan {
	t.Helper()
	in, err := pl.Parse(args, false)
	if err != nil {
		t.Fatal(err)
	}
	srv := testMCP
	d := Decision{NewSessionID: "N", Packet: packet, RunDir: "/run/r1", HookCommand: testHook, MCP: &srv,
		Getenv: func(k string) string { return env[k] }}
	p, err := pl.Build(in, d)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Every registered harness that names MCP tools registers the server in its
// plan (argv, environment or a run file) and nothing without Decision.MCP.
func TestMCPRegisteredByEveryCapableHarness(t *testing.T) {
	for _, h := range All() {
		if h.MCPToolName == nil {
			continue
		}
		t.Run(h.Name, func(t *testing.T) {
			if got := h.MCPToolName(MCPServerName, "search"); !strings.Contains(got, "search") || !strings.Contains(got, "memory") {
				t.Errorf("MCPToolName = %q, want one naming the server and the tool", got)
			}
			with := planText(buildMCP(t, h.Planner, "", nil, "-p", "hi"))
			if !strings.Contains(with, "ai memory/ai-memory") || !strings.Contains(with, "ws-1") {
				t.Errorf("plan does not carry the server command and scope: %s", with)
			}
			in, _ := h.Planner.Parse([]string{"-p", "hi"}, false)
			without, err := h.Planner.Build(in, Decision{NewSessionID: "N", RunDir: "/run/r1", HookCommand: testHook})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(planText(without), "ai memory/ai-memory") {
				t.Errorf("plan without Decision.MCP registers a server: %s", planText(without))
			}
		})
	}
}

func planText(p Plan) string {
	b, _ := json.Marshal(p)
	return string(b)
}

func TestClaudeMCP(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		configs int // --mcp-config options in the final argv
	}{
		{"Alone", []string{"-p", "hi"}, 1},
		{"BesideTheUsers", []string{"--mcp-config", "mine.json", "-p", "hi"}, 2},
		{"StrictKeepsOurs", []string{"--strict-mcp-config", "--mcp-config", "mine.json", "-p", "hi"}, 2},
		{"BeforeDoubleDash", []string{"-p", "--", "hi"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := buildMCP(t, claude{}, "", nil, tt.args...)
			if got := countOf(p.Args, claudeMCPConfigOpt); got != tt.configs {
				t.Errorf("--mcp-config count = %d, want %d in %q", got, tt.configs, p.Args)
			}
			i := lastFlagIndex(p.Args, claudeMCPConfigOpt)
			var cfg struct {
				MCPServers map[string]struct {
					Type, Command string
					Args          []string
					Env           map[string]string
				} `json:"mcpServers"`
			}
			if err := json.Unmarshal([]byte(p.Args[i+1]), &cfg); err != nil {
				t.Fatalf("--mcp-config value: %v", err)
			}
			got := cfg.MCPServers[MCPServerName]
			if got.Type != "stdio" || got.Command != testMCP.Command || !reflect.DeepEqual(got.Args, testMCP.Args) || !reflect.DeepEqual(got.Env, testMCP.Env) {
				t.Errorf("server = %+v", got)
			}
			allow := settingsArg(t, p.Args)["permissions"].(map[string]any)["allow"]
			if !reflect.DeepEqual(allow, []any{"mcp__ai-memory"}) {
				t.Errorf("permissions.allow = %v", allow)
			}
			if tt.name == "BeforeDoubleDash" && p.Args[len(p.Args)-2] != "--" {
				t.Errorf("Args = %q: options must stay before --", p.Args)
			}
		})
	}
}

func TestClaudeMCPSettingsMergeWithPacketAndUserSettings(t *testing.T) {
	user := `{"permissions":{"allow":["Bash(ls)"]},"disableAllHooks":true}`
	p := buildMCP(t, claude{}, "PACKET", nil, "--settings", user, "-p", "hi")
	s := settingsArg(t, p.Args)
	if allow := s["permissions"].(map[string]any)["allow"]; !reflect.DeepEqual(allow, []any{"Bash(ls)", "mcp__ai-memory"}) {
		t.Errorf("allow = %v, want the user's rule then ours", allow)
	}
	if s["hooks"] != nil || p.Confirm != nil || len(p.Notices) != 2 {
		t.Errorf("disableAllHooks: want no hook, no delivery, a skip notice and a merge notice; got hooks %v notices %q", s["hooks"], p.Notices)
	}
	bad := buildMCP(t, claude{}, "", nil, "--settings", `{"permissions":[]}`, "-p", "hi")
	if countOf(bad.Args, claudeMCPConfigOpt) != 1 || len(bad.Notices) != 1 || !strings.Contains(bad.Notices[0], "not pre-approved") {
		t.Errorf("unmergeable settings: args %q notices %q", bad.Args, bad.Notices)
	}
}

func TestCodexMCP(t *testing.T) {
	p := buildMCP(t, codex{}, "", nil, "exec", "-c", "mcp_servers.ai-memory.env={}", "hi")
	want := []string{
		"-c", `mcp_servers.ai-memory.command="/opt/ai memory/ai-memory"`,
		"-c", `mcp_servers.ai-memory.args=["mcp", "--workstream-id", "ws-1"]`,
		"-c", `mcp_servers.ai-memory.env={"AI_MEMORY_HOME" = "/data/am", "AI_MEMORY_RUN_ID" = "run-1"}`,
		"-c", `mcp_servers.ai-memory.default_tools_approval_mode="approve"`,
		"exec", "-c", "mcp_servers.ai-memory.env={}", "hi",
	}
	if !reflect.DeepEqual(p.Args, want) {
		t.Errorf("Args =\n%q\nwant\n%q", p.Args, want)
	}
	if got := lastConfigIndex(p.Args, "mcp_servers.ai-memory.env"); got != 9 {
		t.Errorf("the user's later -c must win: last env override at %d", got)
	}
	if got := codexMCPToolName("ai-memory", "search"); got != "mcp__ai_memory__search" {
		t.Errorf("tool name = %q", got)
	}
}

func TestOpenCodeMCP(t *testing.T) {
	tests := []struct {
		name, user, packet string
		wantMCP            string // the ai-memory entry, "" = the user's kept
		wantInstr          bool
		notice             string
	}{
		{name: "Alone", wantMCP: `{"command":["/opt/ai memory/ai-memory","mcp","--workstream-id","ws-1"],"enabled":true,"environment":{"AI_MEMORY_HOME":"/data/am","AI_MEMORY_RUN_ID":"run-1"},"type":"local"}`},
		{name: "WithPacket", packet: "P", wantMCP: `{"command":["/opt/ai memory/ai-memory","mcp","--workstream-id","ws-1"],"enabled":true,"environment":{"AI_MEMORY_HOME":"/data/am","AI_MEMORY_RUN_ID":"run-1"},"type":"local"}`, wantInstr: true},
		{name: "UsersOwnEntryWins", user: `{"mcp":{"ai-memory":{"type":"local","command":["x"]},"other":{}}}`, wantMCP: `{"type":"local","command":["x"]}`},
		{name: "BadUserMCP", user: `{"mcp":[]}`, notice: "not registered"},
		{name: "BadUserMCPWithPacket", user: `{"mcp":[]}`, packet: "P", notice: "did not deliver"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := buildMCP(t, opencode{}, tt.packet, map[string]string{EnvOpenCodeConfigContent: tt.user}, "run", "hi")
			if tt.notice != "" {
				if len(p.Notices) != 1 || !strings.Contains(p.Notices[0], tt.notice) || len(p.Env) != 0 {
					t.Errorf("notices %q env %v", p.Notices, p.Env)
				}
				return
			}
			var cfg map[string]map[string]json.RawMessage
			var instr struct{ Instructions []string }
			content := p.Env[EnvOpenCodeConfigContent]
			json.Unmarshal([]byte(content), &cfg)
			json.Unmarshal([]byte(content), &instr)
			if got := string(cfg["mcp"][MCPServerName]); got != tt.wantMCP {
				t.Errorf("mcp.ai-memory = %s, want %s", got, tt.wantMCP)
			}
			if tt.user != "" && cfg["mcp"]["other"] == nil {
				t.Errorf("the user's other servers were dropped: %s", content)
			}
			if (len(instr.Instructions) == 1) != tt.wantInstr || (p.Confirm != nil) != tt.wantInstr {
				t.Errorf("instructions %v confirm %v, want packet delivery %v", instr.Instructions, p.Confirm, tt.wantInstr)
			}
		})
	}
	if got := opencodeMCPToolName("ai-memory", "search"); got != "ai-memory_search" {
		t.Errorf("tool name = %q", got)
	}
}

func TestPiMCP(t *testing.T) {
	p := buildMCP(t, pi{version: func(string) (int, int, bool) { return 1, 6, true }}, "", nil, "-p", "hi")
	i := lastFlagIndex(p.Args, piExtensionOpt)
	if i < 0 || p.Args[i+1] != "/run/r1/"+piMCPFile || len(p.Files) != 1 || p.Files[0].Path != p.Args[i+1] {
		t.Fatalf("args %q files %v", p.Args, p.Files)
	}
	src := p.Files[0].Content
	for _, want := range []string{`pi.registerMcpServer("ai-memory", {`, `"command":"/opt/ai memory/ai-memory"`, `"exposure":"direct"`, `typeof pi.registerMcpServer !== "function"`} {
		if !strings.Contains(src, want) {
			t.Errorf("extension lacks %q:\n%s", want, src)
		}
	}
	off := buildMCP(t, pi{version: func(string) (int, int, bool) { return 1, 6, true }}, "", nil, "--no-mcp", "-p", "hi")
	if hasFlag(off.Args, piExtensionOpt) || len(off.Files) != 0 {
		t.Errorf("--no-mcp: args %q files %v", off.Args, off.Files)
	}
	if got := piMCPToolName("ai-memory", "search"); got != "mcp__ai_memory__search" {
		t.Errorf("tool name = %q", got)
	}
}

// The Pi extension runs under Node as an ES module (TypeScript annotation
// stripped) and registers exactly the server given.
func TestPiMCPExtensionRuns(t *testing.T) {
	node, err := lookNode()
	if err != nil {
		t.Skip("node not installed")
	}
	p := buildMCP(t, pi{version: func(string) (int, int, bool) { return 1, 6, true }}, "", nil, "-p", "hi")
	js := strings.Replace(p.Files[0].Content, "(pi: any)", "(pi)", 1)
	dir := t.TempDir()
	mod := dir + "/ext.mjs"
	if err := os.WriteFile(mod, []byte(js), 0o600); err != nil {
		t.Fatal(err)
	}
	script := `const m = await import(process.argv[1]); let got = null;
m.default({registerMcpServer: (n, c) => { got = {n, c}; }}); m.default({});
console.log(JSON.stringify(got));`
	out, err := runNode(node, script, mod)
	if err != nil {
		t.Fatalf("node: %v: %s", err, out)
	}
	var got struct {
		N string
		C map[string]any
	}
	if err := json.Unmarshal(out, &got); err != nil || got.N != MCPServerName || got.C["command"] != testMCP.Command {
		t.Errorf("registered %s (%v)", out, err)
	}
}

func lookNode() (string, error) { return exec.LookPath("node") }

func runNode(node, script, arg string) ([]byte, error) {
	return exec.Command(node, "--input-type=module", "-e", script, arg).CombinedOutput()
}
