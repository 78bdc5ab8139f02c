package launcher

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/sqlite"
	"github.com/ai-memory/ai-memory/repo"
)

// gitIn runs git in dir with the user's configuration isolated away.
func gitIn(t testing.TB, dir string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	cmd := exec.Command("git", append([]string{"-c", "user.name=Test", "-c", "user.email=test@example.com",
		"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", "-c", "protocol.file.allow=always"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// commitIn makes a commit touching file in the checkout dir.
func commitIn(t testing.TB, dir, file string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, file), []byte(file+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "add", file)
	gitIn(t, dir, "commit", "-q", "-m", file)
}

// machineEnv is one simulated machine: its own data home and machine id,
// sharing the ledger file of the test with the other machines.
type machineEnv struct {
	home string
	db   ledger.Ledger
}

func newMachine(t testing.TB, root, name, sharedFile string) machineEnv {
	t.Helper()
	home := filepath.Join(root, "home-"+name)
	db, err := sqlite.OpenWith(context.Background(), home, sqlite.Options{File: sharedFile, Machine: name})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return machineEnv{home: home, db: db}
}

func resolve(t testing.TB, m machineEnv, dir string) ledger.Scope {
	t.Helper()
	id, err := repo.Identify(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ResolveScope(context.Background(), m.db, id)
	if err != nil {
		t.Fatalf("ResolveScope(%s): %v", dir, err)
	}
	return s
}

func sameScope(a, b ledger.Scope) bool {
	return a.RepoFingerprint == b.RepoFingerprint && a.WorktreeFingerprint == b.WorktreeFingerprint
}

// realDir is dir with symlinks resolved (the temp dir may be one).
func realDir(t testing.TB, dir string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Two clones of one repository at different paths on two machines share
// one scope; a linked worktree and a second clone on one machine have
// their own; directories outside git never meet across machines.
func TestResolveScope_ClonesShareWorktreesDoNot(t *testing.T) {
	root := realDir(t, t.TempDir())
	origin := filepath.Join(root, "origin")
	os.MkdirAll(origin, 0o700)
	gitIn(t, origin, "init", "-q")
	commitIn(t, origin, "a.txt")
	commitIn(t, origin, "b.txt")
	cloneA, cloneB := filepath.Join(root, "laptop", "src", "app"), filepath.Join(root, "desktop", "work", "app-clone")
	gitIn(t, root, "clone", "-q", origin, cloneA)
	gitIn(t, root, "clone", "-q", origin, cloneB)
	shared := filepath.Join(root, "shared", "ledger.db")
	a, b := newMachine(t, root, "laptop", shared), newMachine(t, root, "desktop", shared)

	sa, sb := resolve(t, a, cloneA), resolve(t, b, cloneB)
	rootCommit := gitIn(t, origin, "rev-list", "--max-parents=0", "HEAD")
	if !sameScope(sa, sb) || sa.RepoFingerprint != repo.PortableRepo(rootCommit) || sa.WorktreeFingerprint != repo.PortableWorktree(rootCommit) {
		t.Fatalf("clones on two machines: %+v vs %+v; want the root commit's shared scope", sa, sb)
	}
	if sa.Cwd != cloneA || sb.Cwd != cloneB {
		t.Fatalf("cwd %q, %q; want each machine's own path", sa.Cwd, sb.Cwd)
	}
	if sub := resolve(t, a, filepath.Join(cloneA)); !sameScope(sub, sa) {
		t.Fatal("resolving again changed the scope")
	}

	wt := filepath.Join(root, "laptop", "src", "app-feature")
	gitIn(t, cloneA, "worktree", "add", "-q", "-b", "feature", wt)
	swt := resolve(t, a, wt)
	if swt.RepoFingerprint != sa.RepoFingerprint || swt.WorktreeFingerprint == sa.WorktreeFingerprint {
		t.Fatalf("linked worktree = %+v; want the repository's key and its own worktree key", swt)
	}

	second := filepath.Join(root, "laptop", "src", "app-2")
	gitIn(t, root, "clone", "-q", origin, second)
	s2 := resolve(t, a, second)
	if s2.RepoFingerprint != sa.RepoFingerprint || s2.WorktreeFingerprint == sa.WorktreeFingerprint {
		t.Fatalf("second clone on one machine = %+v; want its own workstreams (the first keeps the shared ones)", s2)
	}
	if again := resolve(t, a, cloneA); !sameScope(again, sa) {
		t.Fatal("the first clone lost the shared scope to the second")
	}

	plain := filepath.Join(root, "notes")
	os.MkdirAll(plain, 0o700)
	pa, pb := resolve(t, a, plain), resolve(t, b, plain)
	if sameScope(pa, pb) || pa.RepoFingerprint != repo.LocalRepo("laptop", plain) {
		t.Fatalf("a directory outside git at one path on two machines: %+v vs %+v; want machine-local scopes", pa, pb)
	}
}

// A repository moved to another path keeps its workstreams (its stale
// mapping does not hold the shared scope), and a mapping is computed once:
// checking out an unrelated history later does not move the checkout.
func TestResolveScope_MovedRepoAndCachedMapping(t *testing.T) {
	root := realDir(t, t.TempDir())
	dir := filepath.Join(root, "app")
	os.MkdirAll(dir, 0o700)
	gitIn(t, dir, "init", "-q")
	commitIn(t, dir, "a.txt")
	m := newMachine(t, root, "m1", filepath.Join(root, "ledger.db"))
	before := resolve(t, m, dir)
	ws, err := m.db.SelectWorkstream(context.Background(), before, ledger.Selector{Name: "feat", Create: true})
	if err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "checkout", "-q", "--orphan", "other")
	commitIn(t, dir, "other.txt")
	if s := resolve(t, m, dir); !sameScope(s, before) {
		t.Fatalf("an orphan branch moved the checkout: %+v vs %+v", s, before)
	}
	moved := filepath.Join(root, "elsewhere", "app")
	os.MkdirAll(filepath.Dir(moved), 0o700)
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	gitIn(t, moved, "checkout", "-q", "main")
	after := resolve(t, m, moved)
	if !sameScope(after, before) {
		t.Fatalf("moved repository = %+v; want its scope %+v", after, before)
	}
	if got, _, _ := m.db.CurrentWorkstream(context.Background(), after); got.ID != ws.ID {
		t.Fatalf("moved repository's workstream = %+v; want %s", got, ws.Name)
	}
}

// A repository without commits (or a shallow clone) has a provisional,
// machine-local scope; its workstreams follow it to the shared scope once
// the first commit exists.
func TestResolveScope_ProvisionalThenFirstCommit(t *testing.T) {
	ctx := context.Background()
	root := realDir(t, t.TempDir())
	dir := filepath.Join(root, "fresh")
	os.MkdirAll(dir, 0o700)
	gitIn(t, dir, "init", "-q")
	m := newMachine(t, root, "m1", filepath.Join(root, "ledger.db"))
	prov := resolve(t, m, dir)
	id, _ := repo.Identify(dir)
	if prov.WorktreeFingerprint != repo.LocalWorktree("m1", dir) || prov.RepoFingerprint != repo.LocalRepo("m1", id.CommonDir) {
		t.Fatalf("no commit yet: %+v; want the machine-local scope", prov)
	}
	ws, err := m.db.SelectWorkstream(ctx, prov, ledger.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	commitIn(t, dir, "first.txt")
	final := resolve(t, m, dir)
	rootCommit := gitIn(t, dir, "rev-parse", "HEAD")
	if final.RepoFingerprint != repo.PortableRepo(rootCommit) {
		t.Fatalf("after the first commit: %+v; want the root commit's scope", final)
	}
	if got, ok, _ := m.db.CurrentWorkstream(ctx, final); !ok || got.ID != ws.ID {
		t.Fatalf("the provisional workstream did not follow: %+v, %v", got, ok)
	}

	commitIn(t, dir, "second.txt")
	shallow := filepath.Join(root, "shallow")
	gitIn(t, root, "clone", "-q", "--depth", "1", "file://"+dir, shallow)
	if s := resolve(t, m, shallow); s.RepoFingerprint == final.RepoFingerprint {
		t.Fatalf("shallow clone = %+v; want provisional (its oldest commit is not the root)", s)
	}
	gitIn(t, shallow, "fetch", "-q", "--unshallow")
	if s := resolve(t, m, shallow); s.RepoFingerprint != final.RepoFingerprint {
		t.Fatalf("unshallowed clone = %+v; want the repository's key", s)
	}
}

// A ledger written by ai-memory before portable identity keys workstreams
// by path (LegacyScope, the fingerprints repo.Identify still computes): the
// first resolve in the checkout moves them, with their history, to the
// portable scope; nothing is left behind.
func TestResolveScope_MigratesPathKeyedWorkstreams(t *testing.T) {
	ctx := context.Background()
	root := realDir(t, t.TempDir())
	dir := filepath.Join(root, "app")
	os.MkdirAll(dir, 0o700)
	gitIn(t, dir, "init", "-q")
	commitIn(t, dir, "a.txt")
	m := newMachine(t, root, "m1", filepath.Join(root, "ledger.db"))
	id, _ := repo.Identify(dir)
	old := LegacyScope(id)
	def, err := m.db.SelectWorkstream(ctx, old, ledger.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.db.Append(ctx, ledger.Batch{WorkstreamID: def.ID, Events: []ledger.EventInput{{Harness: "claude",
		NativeSessionID: "s", SourceRecordID: "r1", Kind: ledger.KindMessage, Role: "user", Content: "before the upgrade"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.db.SelectWorkstream(ctx, old, ledger.Selector{Name: "feat", Create: true}); err != nil {
		t.Fatal(err)
	}
	s := resolve(t, m, dir)
	if list, _ := m.db.ListWorkstreams(ctx, old); len(list) != 0 {
		t.Fatalf("%d workstreams left under the path-keyed scope", len(list))
	}
	list, err := m.db.ListWorkstreams(ctx, s)
	if err != nil || len(list) != 2 {
		t.Fatalf("portable scope lists %d, %v; want both", len(list), err)
	}
	if n, _ := m.db.CountEvents(ctx, def.ID); n != 1 {
		t.Fatal("the moved workstream lost its history")
	}
	if cur, _, _ := m.db.CurrentWorkstream(ctx, s); cur.Name != "feat" {
		t.Fatalf("current = %q; want the most recently selected, feat", cur.Name)
	}
}
