package harness

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestParseVersion(t *testing.T) {
	for _, tt := range []struct{ out, want string }{
		{"2.1.332 (Claude Code)\n", "2.1.332"},
		{"codex-cli 0.171.0", "0.171.0"},
		{"1.18.33", "1.18.33"},
		{"v1.6.0\n", "1.6.0"},
		{"pi version 0.76.0-beta.1 (node 22)", "0.76.0-beta.1"},
		{"tool 3.2", "3.2"},
		{"build 20261201 ok", ""},
		{"ipv4 1.2.3.4.5", "1.2.3"},
		{"", ""},
	} {
		if got := ParseVersion(tt.out); got != tt.want {
			t.Errorf("ParseVersion(%q) = %q, want %q", tt.out, got, tt.want)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"2.1.332", "2.1.332", 0},
		{"2.1.333", "2.1.332", 1},
		{"2.1.40", "2.1.332", -1},
		{"0.171.0", "0.169.0", 1},
		{"1.6", "1.6.0", 0},
		{"1.6.0-beta", "1.6.0", -1},
		{"1.6.0", "1.6.0-beta", 1},
		{"10.0.0", "9.9.9", 1},
	} {
		if got := CompareVersions(tt.a, tt.b); got != tt.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// writeScript makes an executable shell script in a temp dir.
func writeScript(t *testing.T, body string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("shell scripts")
	}
	p := filepath.Join(t.TempDir(), "cli")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestProbeVersion(t *testing.T) {
	d := Descriptor{}
	v, line, err := d.ProbeVersion(context.Background(), writeScript(t, `echo "tool $1 4.5.6"`), 5*time.Second)
	if v != "4.5.6" || line != "tool --version 4.5.6" || err != nil {
		t.Errorf("probe = %q %q %v", v, line, err)
	}
	d.VersionArgs = []string{"version", "--short"}
	if v, _, _ := d.ProbeVersion(context.Background(), writeScript(t, `[ "$1 $2" = "version --short" ] && echo 7.8.9`), 5*time.Second); v != "7.8.9" {
		t.Errorf("VersionArgs probe = %q", v)
	}
	if _, _, err := d.ProbeVersion(context.Background(), writeScript(t, `echo no number here`), 5*time.Second); err != ErrNoVersion {
		t.Errorf("no version: err = %v", err)
	}
}

// A CLI that hangs, even one whose child keeps the output pipe open, is
// cut off at the deadline.
func TestProbeVersionHangs(t *testing.T) {
	start := time.Now()
	_, _, err := Descriptor{}.ProbeVersion(context.Background(), writeScript(t, `sleep 30 & sleep 30`), 300*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "did not answer within 300ms") {
		t.Errorf("err = %v", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("probe took %s", took)
	}
}

// files is a CheckEnv.ReadFile over a map.
func files(m map[string]string) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		if s, ok := m[p]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
}

func TestClaudeCheck(t *testing.T) {
	old := claudeManagedFiles
	claudeManagedFiles = func() []string { return []string{"/managed.json"} }
	defer func() { claudeManagedFiles = old }()
	user, project, local := "/h/.claude/settings.json", "/p/.claude/settings.json", "/p/.claude/settings.local.json"
	for _, tt := range []struct {
		name  string
		files map[string]string
		level Level
		check string
		sub   string // in the first finding's detail
	}{
		{"nothing", nil, LevelOK, "delivery", "SessionStart hook"},
		{"user off", map[string]string{user: `{"disableAllHooks":true}`}, LevelFail, "delivery", "disableAllHooks is true in " + user},
		{"project undoes user", map[string]string{user: `{"disableAllHooks":true}`, project: `{"disableAllHooks":false}`}, LevelOK, "delivery", ""},
		{"local off", map[string]string{project: `{"disableAllHooks":false}`, local: `{"disableAllHooks":true}`}, LevelFail, "delivery", "true in " + local},
		{"managed off wins", map[string]string{local: `{"disableAllHooks":false}`, "/managed.json": `{"disableAllHooks":true}`}, LevelFail, "delivery", "true in /managed.json"},
		{"managed hooks only", map[string]string{"/managed.json": `{"allowManagedHooksOnly":true}`}, LevelFail, "delivery", "/managed.json sets allowManagedHooksOnly"},
		{"user hooks only ignored", map[string]string{user: `{"allowManagedHooksOnly":true}`}, LevelOK, "delivery", ""},
		{"malformed", map[string]string{user: `{"disableAllHooks":`}, LevelWarn, "settings", user + " is not a JSON object"},
	} {
		e := CheckEnv{Home: "/h", Project: "/p", Cwd: "/p", Getenv: func(string) string { return "" }, ReadFile: files(tt.files)}
		f := claudeCheck(e)[0]
		if f.Level != tt.level || f.Check != tt.check || !strings.Contains(f.Detail, tt.sub) {
			t.Errorf("%s: first finding %+v, want %v %s containing %q", tt.name, f, tt.level, tt.check, tt.sub)
		}
	}
}

func TestClaudeCheckHonoursConfigDir(t *testing.T) {
	e := CheckEnv{Home: "/h", Project: "/p", Getenv: func(k string) string {
		if k == "CLAUDE_CONFIG_DIR" {
			return "/cfg"
		}
		return ""
	}, ReadFile: files(map[string]string{"/cfg/settings.json": `{"disableAllHooks":true}`})}
	if got := claudeCheck(e); got[0].Level != LevelFail {
		t.Errorf("findings = %+v, want the CLAUDE_CONFIG_DIR file to count", got)
	}
}

func TestOpenCodeCheck(t *testing.T) {
	for _, tt := range []struct {
		value string
		want  Level
	}{
		{"", LevelOK},
		{`{"instructions":["a.md"]}`, LevelOK},
		{`{"instructions":"a.md"}`, LevelFail},
		{`// jsonc {}`, LevelFail},
	} {
		e := CheckEnv{Getenv: func(k string) string {
			if k == EnvOpenCodeConfigContent {
				return tt.value
			}
			return ""
		}}
		if got := opencodeCheck(e); got[0].Level != tt.want {
			t.Errorf("%q: %+v, want %v", tt.value, got, tt.want)
		}
	}
}

func TestCodexCheck(t *testing.T) {
	cfg := "/h/.codex/config.toml"
	for _, tt := range []struct {
		toml string
		want Level
	}{
		{"", LevelOK},
		{"model = \"o3\"\ndeveloper_instructions = \"be terse\"\n", LevelWarn},
		{"model = \"o3\"\n[profiles.x]\ndeveloper_instructions = \"be terse\"\n", LevelOK},
		{"# developer_instructions = \"x\"\n", LevelOK},
	} {
		e := CheckEnv{Home: "/h", Getenv: func(string) string { return "" }, ReadFile: files(map[string]string{cfg: tt.toml})}
		if got := codexCheck(e); got[0].Level != tt.want {
			t.Errorf("%q: %+v, want %v", tt.toml, got, tt.want)
		}
	}
}
