package harness

import (
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestCrushPlan(t *testing.T) {
	type want struct {
		args        []string
		mode        Mode
		interactive bool
		explicit    bool
		explicitID  string
		session     string
		resume      bool
	}
	const id = "0b7c7a52-1f9e-4a35-9d1c-51a3c4e1d2f0"
	s := func(a ...string) []string { return append([]string{}, a...) }
	tests := []struct {
		name string
		r    Request
		want want
	}{
		{"fresh TUI", Request{StdinTTY: true}, want{args: s(), interactive: true}},
		{"fresh run is print mode", Request{Args: s("run", "hi"), StdinTTY: true}, want{args: s("run", "hi")}},
		{"r is run's alias", Request{Args: s("r", "hi"), LinkedSessionID: "l1"},
			want{args: s("r", "--session", "l1", "hi"), session: "l1", resume: true}},
		{"linked TUI resumes at the front", Request{Args: s("-d"), LinkedSessionID: "l1", StdinTTY: true},
			want{args: s("--session", "l1", "-d"), interactive: true, session: "l1", resume: true}},
		{"linked run after run, behind -c DIR", Request{Args: s("-c", "/p", "run", "x"), LinkedSessionID: "l1"},
			want{args: s("-c", "/p", "run", "--session", "l1", "x"), session: "l1", resume: true}},
		{"native -s with a uuid", Request{Args: s("run", "-s", id, "x"), LinkedSessionID: "l1"},
			want{args: s("run", "-s", id, "x"), explicit: true, explicitID: id, session: id, resume: true}},
		{"native short id: found after exit", Request{Args: s("-s", "0b7c7a52"), StdinTTY: true},
			want{args: s("-s", "0b7c7a52"), interactive: true, explicit: true}},
		{"-C continues", Request{Args: s("run", "-C", "x"), LinkedSessionID: "l1"},
			want{args: s("run", "-C", "x"), explicit: true}},
		{"-c is --cwd, not continue", Request{Args: s("-c", "/p"), LinkedSessionID: "l1", StdinTTY: true},
			want{args: s("--session", "l1", "-c", "/p"), interactive: true, session: "l1", resume: true}},
		{"yolo on the TUI", Request{Args: s(), Yolo: true, StdinTTY: true},
			want{args: s("--yolo"), interactive: true}},
		{"native --yolo on the TUI kept once", Request{Args: s("--yolo"), StdinTTY: true},
			want{args: s("--yolo"), interactive: true}},
		{"-y not doubled", Request{Args: s("-y"), Yolo: true, StdinTTY: true},
			want{args: s("-y"), interactive: true}},
		{"never --yolo on run", Request{Args: s("run", "x"), Yolo: true}, want{args: s("run", "x")}},
		{"native --yolo dropped from run", Request{Args: s("run", "--yolo", "x")}, want{args: s("run", "x")}},
		{"--version", Request{Args: s("--version"), LinkedSessionID: "l1"}, want{args: s("--version"), mode: ModePassthrough}},
		{"root -v is version", Request{Args: s("-v")}, want{args: s("-v"), mode: ModePassthrough}},
		{"run -v is verbose", Request{Args: s("run", "-v", "x")}, want{args: s("run", "-v", "x")}},
		{"run --help", Request{Args: s("run", "-h")}, want{args: s("run", "-h"), mode: ModePassthrough}},
		{"session list", Request{Args: s("session", "list"), Yolo: true}, want{args: s("session", "list"), mode: ModePassthrough}},
		{"s alias of session", Request{Args: s("s", "last")}, want{args: s("s", "last"), mode: ModePassthrough}},
		{"prompt word that is a utility name", Request{Args: s("run", "logs", "please")}, want{args: s("run", "logs", "please")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := planWith(crush{}, tt.r)
			if err != nil {
				t.Fatal(err)
			}
			got := want{p.Args, p.Mode, p.Interactive, p.ExplicitSelector, p.ExplicitSessionID, p.SessionID, p.Resume}
			if got.args == nil {
				got.args = []string{}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Plan(%+v)\n got %+v\nwant %+v", tt.r, got, tt.want)
			}
		})
	}
}

func TestCrushFreshWithSelector(t *testing.T) {
	for _, args := range [][]string{{"-s", "x"}, {"run", "--continue", "x"}, {"-C"}} {
		if _, err := planWith(crush{}, Request{Args: args, Fresh: true}); !errors.Is(err, ErrFreshWithSelector) {
			t.Errorf("Plan(%q, fresh) error = %v, want ErrFreshWithSelector", args, err)
		}
	}
}

// TestCrushDelivery checks the per-run global config directory: the user's
// crush.json copied, their crushrc sourced from its directory, the
// defaults and the packet listed, fresh and resumed, TUI and run.
func TestCrushDelivery(t *testing.T) {
	run := filepath.Join("/run", "r1")
	user := filepath.Join("/home", "u", ".config", "crush")
	files := map[string]string{filepath.Join(user, "crush.json"): `{"options":{"debug":true}}`,
		filepath.Join(user, "crushrc"): "option debug true\n"}
	pl := crush{readFile: func(p string) ([]byte, error) {
		if c, ok := files[p]; ok {
			return []byte(c), nil
		}
		return nil, fs.ErrNotExist
	}}
	for _, args := range [][]string{{"run", "x"}, {}} {
		for _, linked := range []string{"", "l1"} {
			p, err := planWith(pl, Request{Args: args, Packet: "PKT", RunDir: run, LinkedSessionID: linked,
				Env: map[string]string{"HOME": "/home/u"}})
			if err != nil {
				t.Fatal(err)
			}
			if p.Env[EnvCrushGlobalConfig] != run || p.Delivery != DeliveryOnStart || len(p.Files) != 3 {
				t.Fatalf("%q linked=%q: env %v, delivery %v, files %v", args, linked, p.Env, p.Delivery, p.Files)
			}
			got := map[string]string{}
			for _, f := range p.Files {
				got[filepath.Base(f.Path)] = f.Content
			}
			rc := got["crushrc"]
			for _, want := range []string{"cd '" + user + "' && source ./crushrc\n",
				"option global-context-path '" + filepath.Join(user, "CRUSH.md") + "'\n",
				"option global-context-path '" + filepath.Join("/home", "u", ".config", "AGENTS.md") + "'\n",
				"option global-context-path '" + filepath.Join(run, crushPacketFile) + "'\n"} {
				if !strings.Contains(rc, want) {
					t.Errorf("crushrc lacks %q:\n%s", want, rc)
				}
			}
			if got["crush.json"] != files[filepath.Join(user, "crush.json")] || got[crushPacketFile] != "PKT" {
				t.Errorf("files %v", got)
			}
		}
	}
}

func TestCrushDeliveryUserDirs(t *testing.T) {
	none := crush{readFile: func(string) ([]byte, error) { return nil, fs.ErrNotExist }}
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"HOME": "/h"}, filepath.Join("/h", ".config", "crush")},
		{map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/x"}, filepath.Join("/x", "crush")},
		{map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/x", EnvCrushGlobalConfig: "/g"}, "/g"},
	} {
		p, err := planWith(none, Request{Args: []string{"run", "x"}, Packet: "PKT", RunDir: "/r", Env: tt.env})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Files) != 2 || !strings.Contains(p.Files[1].Content, "'"+filepath.Join(tt.want, "CRUSH.md")+"'") ||
			strings.Contains(p.Files[1].Content, "source") {
			t.Errorf("env %v: files %v", tt.env, p.Files)
		}
	}
	broken := crush{readFile: func(string) ([]byte, error) { return nil, fs.ErrPermission }}
	p, err := planWith(broken, Request{Args: []string{"run", "x"}, Packet: "PKT", RunDir: "/r", Env: map[string]string{"HOME": "/h"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Files) != 0 || p.Env != nil || p.Delivery != DeliveryNone || len(p.Notices) != 1 {
		t.Errorf("unreadable user config: %+v", p)
	}
}

// TestCrushClientServer: in client-server mode a detached server loads the
// config, so neither the packet nor the MCP server is set up, and one line
// says why; the session flags are planned as usual.
func TestCrushClientServer(t *testing.T) {
	none := crush{readFile: func(string) ([]byte, error) { return nil, fs.ErrNotExist }}
	mcp := &MCPServer{Name: MCPServerName, Command: "/bin/ai-memory", Args: []string{"mcp"}}
	for _, tt := range []struct {
		value   string
		blocked bool
	}{{"1", true}, {"true", true}, {"T", true}, {"0", false}, {"", false}, {"yes", false}} {
		env := map[string]string{"HOME": "/h", envCrushClientServer: tt.value}
		p, err := planWith(none, Request{Args: []string{"run", "x"}, Packet: "PKT", RunDir: "/r", Env: env,
			LinkedSessionID: "0b7c7a52-1f9e-4a35-9d1c-51a3c4e1d2f0", MCP: mcp})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Env == nil && len(p.Files) == 0 && p.Delivery == DeliveryNone; got != tt.blocked {
			t.Errorf("CRUSH_CLIENT_SERVER=%q: delivery skipped = %v, want %v (%+v)", tt.value, got, tt.blocked, p.Plan)
		}
		if tt.blocked && (len(p.Notices) != 1 || !strings.Contains(p.Notices[0], "unset CRUSH_CLIENT_SERVER")) {
			t.Errorf("CRUSH_CLIENT_SERVER=%q: notices %q", tt.value, p.Notices)
		}
		if want := []string{"run", "--session", "0b7c7a52-1f9e-4a35-9d1c-51a3c4e1d2f0", "x"}; !reflect.DeepEqual(p.Args, want) {
			t.Errorf("args %q, want %q", p.Args, want)
		}
	}
}

func TestCrushCheck(t *testing.T) {
	for v, want := range map[string]int{"1": 1, "": 0, "false": 0} {
		e := CheckEnv{Getenv: func(k string) string { return map[string]string{envCrushClientServer: v}[k] }}
		if got := crushCheck(e); len(got) != want || (want == 1 && got[0].Level != LevelWarn) {
			t.Errorf("CRUSH_CLIENT_SERVER=%q: findings %+v", v, got)
		}
	}
}
