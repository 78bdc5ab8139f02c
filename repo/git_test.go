package repo

import (
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
		if want := expectedIdentity(canon(t, top), canon(t, common), true); id != want {
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
	if want := expectedIdentity(dir, dir, true); id != want {
		t.Errorf("bare: got %+v, want %+v", id, want)
	}
}
