package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// store is a throwaway HOME with a Claude and a Codex store, a checkout, a
// symlink to it and another checkout.
type store struct {
	home, repo, link, other string
	env                     Env
}

func newStore(t *testing.T) store {
	t.Helper()
	base := t.TempDir()
	s := store{home: filepath.Join(base, "home"), repo: filepath.Join(base, "work", "repo.git-wt"),
		other: filepath.Join(base, "work", "other"), link: filepath.Join(base, "link")}
	for _, d := range []string{s.home, s.repo, s.other} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(s.repo, s.link); err != nil {
		t.Fatal(err)
	}
	s.repo, _ = canonical(s.repo)
	s.other, _ = canonical(s.other)
	s.env = Env{Home: s.home, Getenv: func(string) string { return "" }}
	return s
}

func (s store) claudeSession(t *testing.T, dir, id, cwd string, age time.Duration) string {
	t.Helper()
	p := filepath.Join(ClaudeProjectDir(filepath.Join(s.home, ".claude"), dir), id+".jsonl")
	writeFile(t, p, fmt.Sprintf(`{"type":"queue-operation","operation":"enqueue","sessionId":%q}
{"type":"user","uuid":"u-%s","cwd":%q,"sessionId":%q,"message":{"role":"user","content":"hi"}}
`, id, id, cwd, id))
	setAge(t, p, age)
	return p
}

// today and yesterday name Codex's date directories (local time, as Codex
// writes them) relative to now: CreatedSince prunes older days, so fixed
// dates would age out of the window.
var (
	today     = time.Now().Format("2006/01/02")
	yesterday = time.Now().AddDate(0, 0, -1).Format("2006/01/02")
)

func (s store) codexSession(t *testing.T, day, id, cwd string, age time.Duration) string {
	t.Helper()
	p := filepath.Join(s.home, ".codex", "sessions", day, "rollout-"+filepath.Base(day)+"T10-00-00-"+id+".jsonl")
	meta := fmt.Sprintf(`{"timestamp":"2026-11-30T10:00:00Z","type":"session_meta","payload":{"id":%q,"cwd":%q,"base_instructions":{"text":"base of %s"}}}`, id, cwd, id)
	if cwd == "" {
		meta = `{"timestamp":"2026-11-30T10:00:00Z","type":"turn_context","payload":{}}`
	}
	writeFile(t, p, meta+"\n")
	setAge(t, p, age)
	return p
}

func setAge(t *testing.T, p string, age time.Duration) {
	t.Helper()
	mt := time.Now().Add(-age)
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
}

func ids(ss []Session) []string {
	out := []string{}
	for _, s := range ss {
		out = append(out, s.ID)
	}
	return out
}

func TestClaudeDiscovery(t *testing.T) {
	s := newStore(t)
	s.claudeSession(t, s.repo, "new", s.repo, time.Minute)
	s.claudeSession(t, s.repo, "old", s.repo, time.Hour)
	s.claudeSession(t, s.repo, "forged", s.other, 0)                              // in the folder, recorded elsewhere
	s.claudeSession(t, s.repo, "gone", filepath.Join(s.repo, "deleted"), 0)       // cwd cannot be resolved
	s.claudeSession(t, s.other, "elsewhere", s.other, 0)                          // another checkout
	s.claudeSession(t, filepath.Join(s.repo, "new", "subagents"), "x", s.repo, 0) // folded dir of a subagent path
	writeFile(t, filepath.Join(ClaudeProjectDir(filepath.Join(s.home, ".claude"), s.repo), "new", "subagents", "agent-1.jsonl"),
		`{"type":"user","uuid":"sa","cwd":"`+s.repo+`","message":{"role":"user","content":"sub"}}`+"\n")
	before := treeSums(t, s.home)
	src, _ := sourceFor("claude")

	tests := []struct {
		name, checkout string
		limit          int
		want           []string
	}{
		{"checkout", s.repo, 0, []string{"new", "old"}},
		{"through a symlink", s.link, 0, []string{"new", "old"}},
		{"limit", s.repo, 1, []string{"new"}},
		{"other checkout", s.other, 0, []string{"elsewhere"}},
		{"missing checkout", filepath.Join(s.repo, "nope"), 0, []string{}},
	}
	for _, tt := range tests {
		got, err := src.List(s.env, tt.checkout, tt.limit)
		if err != nil || !reflect.DeepEqual(ids(got), tt.want) {
			t.Errorf("%s: List = %v, %v; want %v", tt.name, ids(got), err, tt.want)
		}
	}
	got, err := src.CreatedSince(s.env, s.repo, time.Now().Add(-10*time.Minute))
	if err != nil || !reflect.DeepEqual(ids(got), []string{"new"}) {
		t.Errorf("CreatedSince = %v, %v", ids(got), err)
	}
	if got := src.WatchRoots(s.env, s.link); got[0] != ClaudeProjectDir(filepath.Join(s.home, ".claude"), s.repo) {
		t.Errorf("WatchRoots = %v", got)
	}
	all, _ := src.List(s.env, s.repo, 0)
	for _, sess := range all {
		if r := readAll(t, src, sess.Path, Cursor(""), ReadOptions{}); len(r.events) != 1 {
			t.Errorf("Read(%s) = %d events", sess.ID, len(r.events))
		}
	}
	if !reflect.DeepEqual(before, treeSums(t, s.home)) {
		t.Error("discovery or reading modified the store")
	}
}

func TestCodexDiscovery(t *testing.T) {
	s := newStore(t)
	s.codexSession(t, yesterday, "id-old", s.repo, time.Hour)
	s.codexSession(t, today, "id-new", s.repo, time.Minute)
	s.codexSession(t, today, "id-other", s.other, 0)
	s.codexSession(t, today, "id-nometa", "", 0)
	writeFile(t, filepath.Join(s.home, ".codex", "sessions", filepath.FromSlash(today), "notes.jsonl"), "{}\n")
	before := treeSums(t, s.home)
	src, _ := sourceFor("codex")

	got, err := src.List(s.env, s.link, 0)
	if err != nil || !reflect.DeepEqual(ids(got), []string{"id-new", "id-old"}) {
		t.Errorf("List = %v, %v", ids(got), err)
	}
	got, err = src.CreatedSince(s.env, s.repo, time.Now().Add(-10*time.Minute))
	if err != nil || !reflect.DeepEqual(ids(got), []string{"id-new"}) {
		t.Errorf("CreatedSince = %v, %v", ids(got), err)
	}
	if got, _ := src.List(s.env, s.other, 0); !reflect.DeepEqual(ids(got), []string{"id-other"}) {
		t.Errorf("List(other) = %v", ids(got))
	}
	text, err := CodexBaseInstructions(got[0].Path)
	if err != nil || text != "base of id-new" {
		t.Errorf("CodexBaseInstructions = %q, %v", text, err)
	}
	if _, err := CodexBaseInstructions(filepath.Join(s.home, ".codex", "sessions", filepath.FromSlash(today), "notes.jsonl")); err == nil {
		t.Error("CodexBaseInstructions without session_meta: want an error")
	}
	if !reflect.DeepEqual(before, treeSums(t, s.home)) {
		t.Error("discovery modified the store")
	}
}

func TestFind(t *testing.T) {
	s := newStore(t)
	s.claudeSession(t, s.repo, "c-1", s.repo, 0)
	s.codexSession(t, today, "x-1", s.repo, 0)
	broken := newStore(t) // stores whose directory is a file: unreadable
	writeFile(t, filepath.Join(broken.home, ".claude", "projects"), "not a dir")
	writeFile(t, filepath.Join(broken.home, ".codex", "sessions"), "not a dir")
	empty := newStore(t)

	tests := []struct {
		harness, id string
		st          store
		want        Existence
	}{
		{"claude", "c-1", s, Present},
		{"claude", "c-2", s, Absent},
		{"claude", "../c-1", s, Absent},
		{"claude", "c-1", empty, Absent},
		{"claude", "c-1", broken, Unknown},
		{"codex", "x-1", s, Present},
		{"codex", "x-2", s, Absent},
		{"codex", "x-1", empty, Absent},
		{"codex", "x-1", broken, Unknown},
	}
	for _, tt := range tests {
		src, _ := sourceFor(tt.harness)
		sess, got, err := src.Find(tt.st.env, tt.id)
		if got != tt.want {
			t.Errorf("%s Find(%q) = %v (%v), want %v", tt.harness, tt.id, got, err, tt.want)
		}
		if got == Present && (sess.ID != tt.id || sess.Cwd != s.repo || sess.Size == 0) {
			t.Errorf("%s Find(%q) session = %+v", tt.harness, tt.id, sess)
		}
		if (got == Unknown) != (err != nil) {
			t.Errorf("%s Find(%q): error %v with answer %v", tt.harness, tt.id, err, got)
		}
	}
}

func TestStoreRootOverrides(t *testing.T) {
	tests := []struct {
		harness, key, val, want string
	}{
		{"claude", "CLAUDE_CONFIG_DIR", "/cfg/claude", "/cfg/claude"},
		{"claude", "CLAUDE_CONFIG_DIR", "  ", "/h/.claude"},
		{"codex", "CODEX_HOME", "/cfg/codex", "/cfg/codex"},
		{"codex", "CODEX_HOME", "", "/h/.codex"},
	}
	for _, tt := range tests {
		env := Env{Home: "/h", Getenv: func(k string) string {
			if k == tt.key {
				return tt.val
			}
			return ""
		}}
		src, ok := sourceFor(tt.harness)
		if !ok || src.StoreRoot(env) != tt.want {
			t.Errorf("%s with %s=%q: %q, want %q", tt.harness, tt.key, tt.val, src.StoreRoot(env), tt.want)
		}
	}
	if _, ok := sourceFor("opencode"); ok {
		t.Error("sourceFor(opencode) found a source")
	}
	if got := (codexSource{}).WatchRoots(Env{Home: "/h"}, "/x"); !reflect.DeepEqual(got, []string{"/h/.codex/sessions"}) {
		t.Errorf("codex WatchRoots = %v", got)
	}
}

func TestClaudeProjectDir(t *testing.T) {
	tests := []struct{ cwd, want string }{
		{"/home/me/my_repo.v2", "/r/projects/-home-me-my-repo-v2"},
		{"/tmp/été x", "/r/projects/-tmp--t--x"},
		{"/a/😀", "/r/projects/-a---"},
		{`C:\Users\me`, "/r/projects/C--Users-me"},
	}
	for _, tt := range tests {
		if got := ClaudeProjectDir("/r", tt.cwd); got != tt.want {
			t.Errorf("ClaudeProjectDir(%q) = %q, want %q", tt.cwd, got, tt.want)
		}
	}
}
