package repo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// needGit skips tests that need a real git binary.
func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
}

// git runs git in dir with the user's configuration isolated away.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// newGitRepo creates a repository with one commit and returns its
// canonical path.
func newGitRepo(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(canon(t, t.TempDir()), "repo")
	mkdirs(t, dir)
	git(t, dir, "init", "-q")
	writeFile(t, filepath.Join(dir, "a.txt"), "a\n")
	git(t, dir, "add", "a.txt")
	git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

// TestIdentify_RealGitAgreesWithGit compares discovery with git's own
// answer for a main worktree, a linked worktree and subdirectories.
func TestIdentify_RealGitAgreesWithGit(t *testing.T) {
	needGit(t)
	main := newGitRepo(t)
	wt := filepath.Join(filepath.Dir(main), "wt")
	git(t, main, "worktree", "add", "-q", "-b", "feature", wt)
	mkdirs(t, filepath.Join(main, "x", "y"), filepath.Join(wt, "z"))
	for _, dir := range []string{main, filepath.Join(main, "x", "y"), wt, filepath.Join(wt, "z")} {
		id, err := Identify(dir)
		if err != nil {
			t.Fatal(err)
		}
		top := git(t, dir, "rev-parse", "--show-toplevel")
		common := git(t, dir, "rev-parse", "--path-format=absolute", "--git-common-dir")
		want := expectedIdentity(canon(t, top), canon(t, common), true)
		want.GitDir = canon(t, git(t, dir, "rev-parse", "--path-format=absolute", "--git-dir"))
		if id != want {
			t.Errorf("Identify(%s)\n got %+v\nwant %+v", dir, id, want)
		}
	}
	a, _ := Identify(main)
	b, _ := Identify(wt)
	if a.RepoFingerprint != b.RepoFingerprint || a.WorktreeFingerprint == b.WorktreeFingerprint {
		t.Errorf("worktrees: main %+v, linked %+v", a, b)
	}
}

func TestIdentify_RealBareRepo(t *testing.T) {
	needGit(t)
	dir := filepath.Join(canon(t, t.TempDir()), "b.git")
	mkdirs(t, dir)
	git(t, dir, "init", "-q", "--bare")
	id, err := Identify(filepath.Join(dir, "refs"))
	if err != nil {
		t.Fatal(err)
	}
	want := expectedIdentity(dir, dir, true)
	want.GitDir = dir
	if id != want || !id.IsMainCheckout() {
		t.Errorf("bare: got %+v, want %+v", id, want)
	}
}

// RootCommit follows first parents from HEAD: merging an unrelated history
// (another root) does not change it, whichever side is older; a repository
// without commits, a shallow clone and a missing git are reported as such.
func TestRootCommit_States(t *testing.T) {
	needGit(t)
	ctx := context.Background()
	main := newGitRepo(t)
	first := git(t, main, "rev-list", "--max-parents=0", "HEAD")
	other := filepath.Join(filepath.Dir(main), "other")
	mkdirs(t, other)
	git(t, other, "init", "-q")
	writeFile(t, filepath.Join(other, "o.txt"), "o\n")
	git(t, other, "add", "o.txt")
	git(t, other, "commit", "-q", "-m", "other root")
	git(t, main, "fetch", "-q", other, "main:other")
	git(t, main, "merge", "-q", "--allow-unrelated-histories", "-m", "merge other", "other")
	if roots := strings.Fields(git(t, main, "rev-list", "--max-parents=0", "HEAD")); len(roots) != 2 {
		t.Fatalf("want two roots after the merge, got %v", roots)
	}
	id, _ := Identify(main)
	if r := RootCommit(ctx, id); r.State != RootFound || r.Commit != first {
		t.Fatalf("RootCommit after merging another history = %+v; want the first-parent root %s", r, first)
	}

	fresh := filepath.Join(filepath.Dir(main), "fresh")
	mkdirs(t, fresh)
	git(t, fresh, "init", "-q")
	fid, _ := Identify(fresh)
	if r := RootCommit(ctx, fid); r.State != RootUnborn {
		t.Fatalf("no commit yet: %+v; want RootUnborn", r)
	}
	shallow := filepath.Join(filepath.Dir(main), "shallow")
	git(t, filepath.Dir(main), "clone", "-q", "--depth", "1", "file://"+main, shallow)
	sid, _ := Identify(shallow)
	if r := RootCommit(ctx, sid); r.State != RootShallow {
		t.Fatalf("shallow clone: %+v; want RootShallow", r)
	}
	if r := RootCommit(ctx, Identity{Root: main}); r.State != RootUnknown {
		t.Fatalf("outside git: %+v; want RootUnknown", r)
	}
	old := gitBinary
	gitBinary = filepath.Join(t.TempDir(), "no-such-git")
	defer func() { gitBinary = old }()
	if r := RootCommit(ctx, id); r.State != RootUnknown || r.Err == nil {
		t.Fatalf("without git: %+v; want RootUnknown with the reason", r)
	}
}

// unbornHead answers from git's files what `git rev-parse --verify HEAD`
// answers by running git: through a first commit, packed refs, an orphan
// branch, a detached HEAD and a linked worktree; and it does not guess for
// a reftable repository.
func TestUnbornHead_AgreesWithGit(t *testing.T) {
	needGit(t)
	dir := filepath.Join(canon(t, t.TempDir()), "repo")
	mkdirs(t, dir)
	wt := filepath.Join(filepath.Dir(dir), "wt")
	steps := []struct {
		name string
		do   func()
		at   string
	}{
		{"fresh init", func() { git(t, dir, "init", "-q") }, dir},
		{"first commit", func() {
			writeFile(t, filepath.Join(dir, "a.txt"), "a\n")
			git(t, dir, "add", "a.txt")
			git(t, dir, "commit", "-q", "-m", "first")
		}, dir},
		{"refs packed", func() { git(t, dir, "pack-refs", "--all") }, dir},
		{"orphan branch", func() { git(t, dir, "checkout", "-q", "--orphan", "orphan") }, dir},
		{"detached HEAD", func() { git(t, dir, "checkout", "-q", "--detach", "main") }, dir},
		{"linked worktree", func() { git(t, dir, "worktree", "add", "-q", "-b", "feature", wt) }, wt},
	}
	for _, s := range steps {
		s.do()
		id, err := Identify(s.at)
		if err != nil {
			t.Fatal(err)
		}
		verify := exec.Command("git", "rev-parse", "-q", "--verify", "HEAD")
		verify.Dir = s.at
		born := verify.Run() == nil
		if got := unbornHead(id); got == born {
			t.Errorf("%s: unbornHead = %v, but git says HEAD has a commit = %v", s.name, got, born)
		}
	}

	fresh := filepath.Join(filepath.Dir(dir), "reftable")
	mkdirs(t, fresh)
	git(t, fresh, "init", "-q")
	mkdirs(t, filepath.Join(fresh, ".git", "reftable"))
	if id, _ := Identify(fresh); unbornHead(id) {
		t.Error("a repository with a reftable directory: unbornHead guessed true; want false (ask git)")
	}
}
