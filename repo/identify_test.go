package repo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// canon returns the symlink-free form of a test path (t.TempDir may live
// under a symlinked /tmp on some systems).
func canon(t testing.TB, p string) string {
	t.Helper()
	c, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mkdirs(t testing.TB, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
	}
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	mkdirs(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// fakeGitDir builds the minimum git treats as a git directory: HEAD plus
// objects/ and refs/ (the latter two live in the common dir).
func fakeGitDir(t testing.TB, dir string, config string) {
	t.Helper()
	mkdirs(t, filepath.Join(dir, "objects"), filepath.Join(dir, "refs", "heads"))
	writeFile(t, filepath.Join(dir, "HEAD"), "ref: refs/heads/main\n")
	if config != "" {
		writeFile(t, filepath.Join(dir, "config"), config)
	}
}

// fakeLinkedWorktree builds main/.git/worktrees/<name> and a worktree dir
// whose .git file points there, the layout `git worktree add` produces.
func fakeLinkedWorktree(t testing.TB, mainRepo, wt, name string, relative bool) {
	t.Helper()
	wtGitDir := filepath.Join(mainRepo, ".git", "worktrees", name)
	writeFile(t, filepath.Join(wtGitDir, "HEAD"), "ref: refs/heads/feature\n")
	writeFile(t, filepath.Join(wtGitDir, "commondir"), "../..\n")
	writeFile(t, filepath.Join(wtGitDir, "gitdir"), filepath.Join(wt, ".git")+"\n")
	target := wtGitDir
	if relative {
		rel, err := filepath.Rel(wt, wtGitDir)
		if err != nil {
			t.Fatal(err)
		}
		target = rel
	}
	writeFile(t, filepath.Join(wt, ".git"), "gitdir: "+target+"\n")
}

// TestIdentify_HandBuilt covers discovery on hand-built layouts, so it runs
// without a git binary.
func TestIdentify_HandBuilt(t *testing.T) {
	base := canon(t, t.TempDir())
	main := filepath.Join(base, "main")
	fakeGitDir(t, filepath.Join(main, ".git"), "[core]\n\tbare = false\n")
	mkdirs(t, filepath.Join(main, "src", "pkg"))
	fakeLinkedWorktree(t, main, filepath.Join(base, "wt-abs"), "wt-abs", false)
	fakeLinkedWorktree(t, main, filepath.Join(base, "wt-rel"), "wt-rel", true)
	mkdirs(t, filepath.Join(base, "wt-rel", "deep", "er"))
	// Submodule: the checkout's .git file points into the superproject's modules/.
	fakeGitDir(t, filepath.Join(main, ".git", "modules", "sub"), "[core]\n\tbare = false\n\tworktree = ../../../sub\n")
	writeFile(t, filepath.Join(main, "sub", ".git"), "gitdir: ../.git/modules/sub\n")
	// An invalid .git directory (no HEAD) is skipped, as git does.
	mkdirs(t, filepath.Join(main, "vendor", "x", ".git"))
	fakeGitDir(t, filepath.Join(base, "bare.git"), "[core]\n\trepositoryformatversion = 0\n\tbare = true\n")
	mkdirs(t, filepath.Join(base, "bare.git", "refs", "tags"), filepath.Join(base, "plain", "dir"))

	mainCommon := filepath.Join(main, ".git")
	tests := []struct {
		name, dir, root, common string
		git                     bool
	}{
		{"plain repo top", main, main, mainCommon, true},
		{"subdirectory", filepath.Join(main, "src", "pkg"), main, mainCommon, true},
		{"inside .git dir", filepath.Join(main, ".git", "refs", "heads"), main, mainCommon, true},
		{"invalid nested .git dir skipped", filepath.Join(main, "vendor", "x"), main, mainCommon, true},
		{"linked worktree, absolute gitdir", filepath.Join(base, "wt-abs"), filepath.Join(base, "wt-abs"), mainCommon, true},
		{"linked worktree subdir, relative gitdir", filepath.Join(base, "wt-rel", "deep", "er"), filepath.Join(base, "wt-rel"), mainCommon, true},
		{"submodule", filepath.Join(main, "sub"), filepath.Join(main, "sub"), filepath.Join(main, ".git", "modules", "sub"), true},
		{"bare repo", filepath.Join(base, "bare.git"), filepath.Join(base, "bare.git"), filepath.Join(base, "bare.git"), true},
		{"inside bare repo", filepath.Join(base, "bare.git", "refs", "tags"), filepath.Join(base, "bare.git"), filepath.Join(base, "bare.git"), true},
		{"non-git dir", filepath.Join(base, "plain", "dir"), filepath.Join(base, "plain", "dir"), "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, err := Identify(tc.dir)
			if err != nil {
				t.Fatalf("Identify(%s): %v", tc.dir, err)
			}
			want := expectedIdentity(tc.root, tc.common, tc.git)
			if tc.git == (id.GitDir == "") {
				t.Errorf("Identify(%s).GitDir = %q; want the worktree's git dir in git, none outside", tc.dir, id.GitDir)
			}
			if id.GitDir = ""; id != want {
				t.Errorf("Identify(%s)\n got %+v\nwant %+v", tc.dir, id, want)
			}
		})
	}
}

// expectedIdentity restates the specification of docs/workstream-identity.md.
func expectedIdentity(root, common string, git bool) Identity {
	if !git {
		return Identity{Root: root, RepoFingerprint: fingerprint(domainDirRepo, root), WorktreeFingerprint: fingerprint(domainDirWorktree, root)}
	}
	return Identity{Root: root, CommonDir: common, Git: true,
		RepoFingerprint: fingerprint(domainGitRepo, common), WorktreeFingerprint: fingerprint(domainGitWorktree, root)}
}

// TestFingerprint_Pinned pins the algorithm: these values were computed
// independently (Python hashlib) from the documented formula. If this test
// fails, every stored workstream would be orphaned.
func TestFingerprint_Pinned(t *testing.T) {
	tests := []struct{ domain, path, want string }{
		{domainGitRepo, "/srv/app/.git", "eec1acc481ae10f488c415b1c1d98e0a"},
		{domainGitWorktree, "/srv/app", "5c595cd4c85675e0ee9dd1549b373c02"},
		{domainDirRepo, "/srv/app", "2b5cd1d361fccd4c43dde487ddfb9854"},
		{domainDirWorktree, "/srv/app", "1a840ac6d9c80183bcf9cefa58b057e5"},
	}
	for _, tc := range tests {
		if got := fingerprint(tc.domain, tc.path); got != tc.want {
			t.Errorf("fingerprint(%q, %q) = %s, want %s", tc.domain, tc.path, got, tc.want)
		}
	}
}

func TestIdentify_WorktreesShareRepoNotWorktree(t *testing.T) {
	base := canon(t, t.TempDir())
	main := filepath.Join(base, "main")
	fakeGitDir(t, filepath.Join(main, ".git"), "")
	fakeLinkedWorktree(t, main, filepath.Join(base, "wt"), "wt", true)
	a, errA := Identify(main)
	b, errB := Identify(filepath.Join(base, "wt"))
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if a.RepoFingerprint != b.RepoFingerprint {
		t.Errorf("repo fingerprints differ: %s vs %s", a.RepoFingerprint, b.RepoFingerprint)
	}
	if a.WorktreeFingerprint == b.WorktreeFingerprint {
		t.Errorf("worktree fingerprints equal: %s", a.WorktreeFingerprint)
	}
}

func TestIdentify_SymlinkedPathSameIdentity(t *testing.T) {
	base := canon(t, t.TempDir())
	main := filepath.Join(base, "main")
	fakeGitDir(t, filepath.Join(main, ".git"), "")
	mkdirs(t, filepath.Join(main, "src"), filepath.Join(base, "plain"))
	links := map[string]string{"link-repo": main, "link-src": filepath.Join(main, "src"), "link-plain": filepath.Join(base, "plain")}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(base, name)); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	for name, target := range links {
		viaLink, err1 := Identify(filepath.Join(base, name))
		direct, err2 := Identify(target)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if viaLink != direct {
			t.Errorf("%s: via symlink %+v, direct %+v", name, viaLink, direct)
		}
	}
	// A relative path with .. resolves to the same identity too.
	t.Chdir(filepath.Join(main, "src"))
	rel, err := Identify("../src/.")
	if err != nil {
		t.Fatal(err)
	}
	if rel.Root != main {
		t.Errorf("relative path root = %s, want %s", rel.Root, main)
	}
}

func TestIdentify_NonGitFingerprintsDistinct(t *testing.T) {
	dir := canon(t, t.TempDir())
	id, err := Identify(dir)
	if err != nil {
		t.Fatal(err)
	}
	if id.Git || id.CommonDir != "" || id.Root != dir {
		t.Errorf("non-git identity = %+v", id)
	}
	if id.RepoFingerprint == id.WorktreeFingerprint {
		t.Errorf("repo and worktree fingerprints must use distinct domains, both %s", id.RepoFingerprint)
	}
	if id.RepoFingerprint == fingerprint(domainGitRepo, dir) || id.WorktreeFingerprint == fingerprint(domainGitWorktree, dir) {
		t.Error("non-git fingerprints must differ from git ones for the same path")
	}
	if len(id.RepoFingerprint) != 32 || len(id.WorktreeFingerprint) != 32 {
		t.Errorf("fingerprint length: %d/%d, want 32", len(id.RepoFingerprint), len(id.WorktreeFingerprint))
	}
}

func TestIdentify_Errors(t *testing.T) {
	base := canon(t, t.TempDir())
	writeFile(t, filepath.Join(base, "file"), "x")
	writeFile(t, filepath.Join(base, "badfile", ".git"), "not a gitfile\n")
	writeFile(t, filepath.Join(base, "dangling", ".git"), "gitdir: ../nowhere/.git/worktrees/x\n")
	mkdirs(t, filepath.Join(base, "locked"))
	if err := os.Symlink(filepath.Join(base, "loop"), filepath.Join(base, "loop")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, dir, wantSubstr string
	}{
		{"empty path", "", "empty directory path"},
		{"missing dir", filepath.Join(base, "missing"), "no such file"},
		{"not a directory", filepath.Join(base, "file"), "not a directory"},
		{"malformed .git file", filepath.Join(base, "badfile"), "not a valid gitfile"},
		{"dangling .git file", filepath.Join(base, "dangling"), "not a git directory"},
		{"symlink loop", filepath.Join(base, "loop"), "too many"},
	}
	if os.Geteuid() != 0 {
		if err := os.Chmod(filepath.Join(base, "locked"), 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(filepath.Join(base, "locked"), 0o700) })
		tests = append(tests, struct{ name, dir, wantSubstr string }{"unreadable dir", filepath.Join(base, "locked"), "permission denied"})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, err := Identify(tc.dir)
			if err == nil {
				t.Fatalf("Identify(%q) = %+v, want error", tc.dir, id)
			}
			if !strings.Contains(err.Error(), tc.wantSubstr) || !strings.HasPrefix(err.Error(), "identify workstream: ") {
				t.Errorf("error %q, want prefix %q and substring %q", err, "identify workstream: ", tc.wantSubstr)
			}
		})
	}
}

func TestConfigIsBare(t *testing.T) {
	tests := []struct {
		config string
		want   bool
	}{
		{"[core]\n\tbare = true\n", true},
		{"[Core]\n\tBare=yes ; comment\n", true},
		{"[core]\n\tbare = false\n", false},
		{"[core]\n\trepositoryformatversion = 0\n", false},
		{"[remote \"origin\"]\n\tbare = true\n", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := configIsBare([]byte(tc.config)); got != tc.want {
			t.Errorf("configIsBare(%q) = %v, want %v", tc.config, got, tc.want)
		}
	}
}

// TestPortable_Pinned pins the portable and machine-local fingerprints
// (docs/workstream-identity.md, "Portable identity"); the root commit is
// git's own.
func TestPortable_Pinned(t *testing.T) {
	const root = "e83c5163316f89bfbde7d9ab23ca2e25604af290"
	tests := []struct{ name, got, want string }{
		{"PortableRepo", PortableRepo(root), "2e4569d8a4d64949f2dc0d86bd90a2b5"},
		{"PortableWorktree", PortableWorktree(root), "4fbff422427da868250c0887f13de315"},
		{"LocalRepo", LocalRepo("laptop", "/srv/app/.git"), "b9616fe096b814b3441441f7aed32709"},
		{"LocalWorktree", LocalWorktree("laptop", "/srv/app"), "fdd3d642c77ab0a9db4bc22aac14fc4d"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s = %s, want %s", tc.name, tc.got, tc.want)
		}
	}
	if LocalWorktree("laptop", "/srv/app") == LocalWorktree("desktop", "/srv/app") {
		t.Error("one path on two machines has one local fingerprint")
	}
}
