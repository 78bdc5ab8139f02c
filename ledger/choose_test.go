package ledger

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// envOf is a getenv over a map.
func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// writeConfig writes the config file of a fresh XDG_CONFIG_HOME and
// returns the environment that finds it.
func writeConfig(t *testing.T, body string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	env := map[string]string{"AI_MEMORY_HOME": filepath.Join(dir, "data"), "XDG_CONFIG_HOME": filepath.Join(dir, "cfg")}
	if body != "" {
		p := filepath.Join(dir, "cfg", "ai-memory", "config")
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return env
}

func TestChoosePrecedence(t *testing.T) {
	tests := []struct {
		name, config, env, flag string
		wantLoc                 string
		wantSrc                 string
	}{
		{name: "nothing set", wantSrc: "default"},
		{name: "config", config: "# shared\nledger = postgres://h/db\n", wantLoc: "postgres://h/db", wantSrc: "config file *:2"},
		{name: "quoted config value, inline comment", config: `ledger = "/srv/l.db"  # team` + "\n", wantLoc: "/srv/l.db", wantSrc: "config file *:1"},
		{name: "env over config", config: "ledger = postgres://h/db\n", env: "/tmp/x/../l.db", wantLoc: "/tmp/l.db", wantSrc: "AI_MEMORY_LEDGER"},
		{name: "flag over env", env: "postgres://h/db", flag: "local", wantLoc: "", wantSrc: "--ledger"},
		{name: "local in env", config: "ledger = postgres://h/db\n", env: "local", wantLoc: "", wantSrc: "AI_MEMORY_LEDGER"},
		{name: "blank env is unset", config: "ledger = /a.db\n", env: "  ", wantLoc: "/a.db", wantSrc: "config file *:1"},
		{name: "hash inside a value", config: "ledger = postgres://u:p#w@h/db\n", wantLoc: "postgres://u:p#w@h/db", wantSrc: "config file *:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := writeConfig(t, tt.config)
			env["AI_MEMORY_LEDGER"] = tt.env
			w, src, err := Choose(envOf(env), tt.flag)
			if err != nil {
				t.Fatal(err)
			}
			if w.Location != tt.wantLoc || w.Home != env["AI_MEMORY_HOME"] {
				t.Errorf("Where = %+v; want location %q in home %q", w, tt.wantLoc, env["AI_MEMORY_HOME"])
			}
			pre, suf, _ := strings.Cut(tt.wantSrc, "*")
			if !strings.HasPrefix(string(src), pre) || !strings.HasSuffix(string(src), suf) {
				t.Errorf("source %q; want %q", src, tt.wantSrc)
			}
		})
	}
}

func TestChooseRefusesBadValues(t *testing.T) {
	tests := []struct{ name, config, env, want string }{
		{name: "relative path", env: "ledger.db", want: `AI_MEMORY_LEDGER: ledger "ledger.db" is not`},
		{name: "unknown key", config: "ledger = local\ncolour = red\n", want: `config:2: unknown key "colour" (keys: ledger, offline)`},
		{name: "no equals", config: "ledger\n", want: "config:1: expected `key = value`"},
		{name: "set twice", config: "ledger = local\nledger = /x.db\n", want: "config:2: ledger is already set on line 1"},
		{name: "bad offline", config: "offline = maybe\n", want: `config:1: offline = "maybe" is not true or false`},
		{name: "password in a bad value", env: "postgres:/u:secret@host", want: "AI_MEMORY_LEDGER: ledger value (not shown: it may hold a password) is not"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := writeConfig(t, tt.config)
			env["AI_MEMORY_LEDGER"] = tt.env
			_, _, err := Choose(envOf(env), "")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Choose error %v; want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestConfigPath(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/ai-memory/config"},
		{map[string]string{"XDG_CONFIG_HOME": "rel", "HOME": "/h"}, "/h/.config/ai-memory/config"},
		{map[string]string{}, ""},
	}
	for _, tt := range tests {
		if got := ConfigPath(envOf(tt.env)); got != tt.want {
			t.Errorf("ConfigPath(%v) = %q; want %q", tt.env, got, tt.want)
		}
	}
}

func TestOffline(t *testing.T) {
	tests := []struct {
		config, env string
		want        bool
		wantErr     string
	}{
		{want: false},
		{config: "offline = true\n", want: true},
		{config: "offline = true\n", env: "0", want: false},
		{env: "1", want: true},
		{env: "sometimes", wantErr: `AI_MEMORY_OFFLINE="sometimes" is not a boolean`},
	}
	for _, tt := range tests {
		env := writeConfig(t, tt.config)
		env["AI_MEMORY_OFFLINE"] = tt.env
		got, err := Offline(envOf(env))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Offline(%q, %q) error %v; want %q", tt.config, tt.env, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Offline(%q, %q) = %v, %v; want %v", tt.config, tt.env, got, err, tt.want)
		}
	}
}

func TestBackend(t *testing.T) {
	for loc, want := range map[string]string{"": "sqlite", "/a/b.db": "sqlite", "postgres://h/d": "postgres", "sqlite:///a": "sqlite"} {
		if got := Backend(loc); got != want {
			t.Errorf("Backend(%q) = %q; want %q", loc, got, want)
		}
	}
}

// BenchmarkDefaultWhere is what choosing the ledger costs every command
// (and `run` before the agent starts, a few times): the environment, a
// config file of a few lines, the offline switch.
func BenchmarkDefaultWhere(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "cfg", "ai-memory", "config")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("# shared\nledger = postgres://ai@db.example/mem\noffline = false\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	env := envOf(map[string]string{"AI_MEMORY_HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "cfg")})
	for b.Loop() {
		if _, err := DefaultWhere(env); err != nil {
			b.Fatal(err)
		}
	}
}
