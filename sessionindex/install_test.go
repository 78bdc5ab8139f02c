package sessionindex

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// snapshot maps every path under root to its mode and content, so tests can
// prove that an operation wrote nothing.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		v := fi.Mode().String()
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			v += " " + string(b)
		}
		out[p] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func install(t *testing.T, o InstallOptions) string {
	t.Helper()
	var out bytes.Buffer
	if err := Install(o, &out); err != nil {
		t.Fatalf("Install(%+v): %v\n%s", o, err, out.String())
	}
	return out.String()
}

func skillPath(root string) string { return filepath.Join(root, skillDir, "SKILL.md") }

func TestInstallFreshThenIdempotent(t *testing.T) {
	root := t.TempDir()
	out := install(t, InstallOptions{Target: root})
	if !strings.Contains(out, "INSTALLED") {
		t.Fatalf("output: %s", out)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "AGENTS.md")); string(got) != AgentsSection {
		t.Fatalf("AGENTS.md:\n%s", got)
	}
	if got, _ := os.ReadFile(skillPath(root)); !bytes.Equal(got, skillMD) {
		t.Fatal("SKILL.md differs from the embedded skill")
	}
	before := snapshot(t, root)
	out = install(t, InstallOptions{Target: root})
	if !strings.Contains(out, "already installed") {
		t.Fatalf("second install output: %s", out)
	}
	if after := snapshot(t, root); !equalMaps(before, after) {
		t.Fatal("second install changed files")
	}
	out = install(t, InstallOptions{Target: root, Upgrade: true})
	if !strings.Contains(out, "already installed") || !equalMaps(before, snapshot(t, root)) {
		t.Fatalf("upgrade of an up-to-date install changed something: %s", out)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestInstallAppendsToExistingAgentsMD(t *testing.T) {
	tests := []struct{ name, old, want string }{
		{name: "no trailing newline", old: "# Rules\nbe nice", want: "# Rules\nbe nice\n\n" + AgentsSection},
		{name: "trailing newline", old: "# Rules\n", want: "# Rules\n\n" + AgentsSection},
		{name: "blank line already", old: "# Rules\n\n", want: "# Rules\n\n" + AgentsSection},
		{name: "section present (CRLF)", old: "x\r\n## Agent session tracking\r\nold text\r\n", want: "x\r\n## Agent session tracking\r\nold text\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			p := filepath.Join(root, "AGENTS.md")
			if err := os.WriteFile(p, []byte(tt.old), 0o600); err != nil {
				t.Fatal(err)
			}
			install(t, InstallOptions{Target: root})
			install(t, InstallOptions{Target: root, Upgrade: true})
			got, _ := os.ReadFile(p)
			if string(got) != tt.want {
				t.Fatalf("got %q\nwant %q", got, tt.want)
			}
			if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
				t.Fatalf("mode changed to %v", fi.Mode())
			}
		})
	}
}

func TestInstallUpgradeRefreshesSkillOnly(t *testing.T) {
	root := t.TempDir()
	install(t, InstallOptions{Target: root})
	old := []byte("---\nname: track-agent-sessions\n---\nold python skill\n")
	if err := os.WriteFile(skillPath(root), old, 0o644); err != nil {
		t.Fatal(err)
	}
	extra := filepath.Join(root, skillDir, "scripts.txt") // other files of an older install stay
	if err := os.WriteFile(extra, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := install(t, InstallOptions{Target: root})
	if got, _ := os.ReadFile(skillPath(root)); !bytes.Equal(got, old) || !strings.Contains(out, "--upgrade") {
		t.Fatalf("install without --upgrade replaced the skill or did not say how: %s", out)
	}
	install(t, InstallOptions{Target: root, Upgrade: true})
	if got, _ := os.ReadFile(skillPath(root)); !bytes.Equal(got, skillMD) {
		t.Fatal("--upgrade did not refresh the skill")
	}
	if _, err := os.Stat(extra); err != nil {
		t.Fatal("--upgrade removed other files")
	}
	agents, _ := os.ReadFile(filepath.Join(root, "AGENTS.md"))
	if n := strings.Count(string(agents), agentsHeading); n != 1 {
		t.Fatalf("section appears %d times", n)
	}
}

func TestInstallDryRunWritesNothing(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, root)
	out := install(t, InstallOptions{Target: root, DryRun: true, Upgrade: true})
	if !strings.Contains(out, "PLAN:") || !strings.Contains(out, "dry run") || !strings.Contains(out, "append") {
		t.Fatalf("plan output: %s", out)
	}
	if !equalMaps(before, snapshot(t, root)) {
		t.Fatal("dry run wrote files")
	}
}

func TestInstallRefusesSymlinks(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, root, elsewhere string) (target string)
	}{
		{name: "AGENTS.md", setup: func(t *testing.T, root, elsewhere string) string {
			link(t, filepath.Join(elsewhere, "f"), filepath.Join(root, "AGENTS.md"))
			return root
		}},
		{name: ".agents", setup: func(t *testing.T, root, elsewhere string) string {
			link(t, elsewhere, filepath.Join(root, ".agents"))
			return root
		}},
		{name: "skills dir", setup: func(t *testing.T, root, elsewhere string) string {
			mustMkdir(t, filepath.Join(root, ".agents"))
			link(t, elsewhere, filepath.Join(root, ".agents", "skills"))
			return root
		}},
		{name: "skill dir", setup: func(t *testing.T, root, elsewhere string) string {
			mustMkdir(t, filepath.Join(root, ".agents", "skills"))
			link(t, elsewhere, filepath.Join(root, skillDir))
			return root
		}},
		{name: "SKILL.md", setup: func(t *testing.T, root, elsewhere string) string {
			mustMkdir(t, filepath.Join(root, skillDir))
			link(t, filepath.Join(elsewhere, "f"), skillPath(root))
			return root
		}},
		{name: "target", setup: func(t *testing.T, root, elsewhere string) string {
			l := filepath.Join(root, "proj")
			link(t, elsewhere, l)
			return l
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, elsewhere := t.TempDir(), t.TempDir()
			if err := os.WriteFile(filepath.Join(elsewhere, "f"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			target := tt.setup(t, root, elsewhere)
			before, beforeElse := snapshot(t, root), snapshot(t, elsewhere)
			err := Install(InstallOptions{Target: target, Upgrade: true}, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), "symlink") {
				t.Fatalf("err = %v, want a symlink refusal", err)
			}
			if !equalMaps(before, snapshot(t, root)) || !equalMaps(beforeElse, snapshot(t, elsewhere)) {
				t.Fatal("refused install still wrote files")
			}
		})
	}
}

func link(t *testing.T, oldname, newname string) {
	t.Helper()
	if err := os.Symlink(oldname, newname); err != nil {
		t.Skip("no symlinks:", err)
	}
}

func TestInstallTargetMustBeADirectory(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"", f, filepath.Join(f, "missing")} {
		if err := Install(InstallOptions{Target: target}, &bytes.Buffer{}); err == nil {
			t.Errorf("Install(%q) succeeded", target)
		}
	}
}

func TestSkillMentionsEveryCommandAndVariable(t *testing.T) {
	text := string(skillMD)
	if !strings.HasPrefix(text, "---\nname: track-agent-sessions\ndescription: ") {
		t.Fatal("SKILL.md lacks YAML front matter with name and description")
	}
	for _, want := range []string{"sessions start", "sessions report", "sessions end", "sessions list",
		"sessions bind-id", "sessions interrupt", "pending", "CODEX_THREAD_ID", "CLAUDE_CODE_SESSION_ID", "Never invent"} {
		if !strings.Contains(text, want) {
			t.Errorf("SKILL.md does not mention %q", want)
		}
	}
}
