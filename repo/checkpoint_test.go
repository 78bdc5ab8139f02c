package repo

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestTakeCheckpoint_NotGit(t *testing.T) {
	needGit(t)
	c := TakeCheckpoint(context.Background(), t.TempDir())
	if !reflect.DeepEqual(c, Checkpoint{}) {
		t.Errorf("non-git checkpoint = %+v, want zero", c)
	}
	if c.Text() != noCheckpointText {
		t.Errorf("Text() = %q", c.Text())
	}
}

func TestTakeCheckpoint_NoGitBinary(t *testing.T) {
	needGit(t)
	dir := newGitRepo(t)
	old := gitBinary
	gitBinary = filepath.Join(t.TempDir(), "no-such-git")
	t.Cleanup(func() { gitBinary = old })
	if c := TakeCheckpoint(context.Background(), dir); c.Git {
		t.Errorf("checkpoint without git binary = %+v, want Git=false", c)
	}
}

func TestTakeCheckpoint_CanceledContext(t *testing.T) {
	needGit(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if c := TakeCheckpoint(ctx, newGitRepo(t)); c.Git {
		t.Errorf("checkpoint with canceled context = %+v, want Git=false", c)
	}
}

func TestTakeCheckpoint_UnbornBranch(t *testing.T) {
	needGit(t)
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	c := TakeCheckpoint(context.Background(), dir)
	want := Checkpoint{Git: true, Branch: "main"}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("unborn checkpoint = %+v, want %+v", c, want)
	}
	if got := c.Text(); got != "HEAD: (no commits yet)\nBranch: main\nWorking tree: clean" {
		t.Errorf("Text() = %q", got)
	}
}

func TestTakeCheckpoint_CleanAndDetached(t *testing.T) {
	needGit(t)
	dir := newGitRepo(t)
	head := git(t, dir, "rev-parse", "HEAD")
	c := TakeCheckpoint(context.Background(), filepath.Join(dir))
	if want := (Checkpoint{Git: true, Head: head, Branch: "main"}); !reflect.DeepEqual(c, want) {
		t.Errorf("clean checkpoint = %+v, want %+v", c, want)
	}
	git(t, dir, "checkout", "-q", "--detach")
	c = TakeCheckpoint(context.Background(), dir)
	if want := (Checkpoint{Git: true, Head: head, Detached: true}); !reflect.DeepEqual(c, want) {
		t.Errorf("detached checkpoint = %+v, want %+v", c, want)
	}
	if want := "HEAD: " + head + "\nBranch: (detached)\nWorking tree: clean"; c.Text() != want {
		t.Errorf("Text() = %q, want %q", c.Text(), want)
	}
}

func TestTakeCheckpoint_Dirty(t *testing.T) {
	needGit(t)
	dir := newGitRepo(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "changed\n")
	writeFile(t, filepath.Join(dir, "new", "b.txt"), "b\n")
	writeFile(t, filepath.Join(dir, "c.txt"), "c\n")
	git(t, dir, "add", "c.txt")
	git(t, dir, "mv", "a.txt", "renamed.txt")
	c1 := TakeCheckpoint(context.Background(), filepath.Join(dir, "new"))
	c2 := TakeCheckpoint(context.Background(), dir)
	if !reflect.DeepEqual(c1, c2) {
		t.Errorf("checkpoint not stable: %+v vs %+v", c1, c2)
	}
	if want := []string{"c.txt", "new/", "renamed.txt"}; !reflect.DeepEqual(c1.ChangedPaths, want) {
		t.Errorf("ChangedPaths = %q, want %q", c1.ChangedPaths, want)
	}
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(c1.DirtyHash) {
		t.Errorf("DirtyHash = %q, want 64 hex chars", c1.DirtyHash)
	}
	writeFile(t, filepath.Join(dir, "d.txt"), "d\n")
	if c3 := TakeCheckpoint(context.Background(), dir); c3.DirtyHash == c1.DirtyHash {
		t.Error("DirtyHash did not change after a new untracked file")
	}
	if txt := c1.Text(); !strings.Contains(txt, "Dirty-state hash: "+c1.DirtyHash+"\nChanged paths:\n- c.txt\n- new/\n- renamed.txt") {
		t.Errorf("Text() = %q", txt)
	}
}

func TestTakeCheckpoint_BoundsChangedPaths(t *testing.T) {
	needGit(t)
	dir := newGitRepo(t)
	for i := range MaxChangedPaths + 7 {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("f%03d", i)), "x")
	}
	c := TakeCheckpoint(context.Background(), dir)
	if len(c.ChangedPaths) != MaxChangedPaths || c.OmittedPaths != 7 {
		t.Fatalf("got %d paths, %d omitted; want %d and 7", len(c.ChangedPaths), c.OmittedPaths, MaxChangedPaths)
	}
	if c.ChangedPaths[0] != "f000" || c.ChangedPaths[MaxChangedPaths-1] != "f049" {
		t.Errorf("paths not the sorted first %d: %q ... %q", MaxChangedPaths, c.ChangedPaths[0], c.ChangedPaths[MaxChangedPaths-1])
	}
	if !strings.HasSuffix(c.Text(), "- f049\n- ... and 7 more") {
		t.Errorf("Text() tail = %q", c.Text()[len(c.Text())-40:])
	}
}

func TestParsePorcelainZ(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{" M b.go\x00?? a.go\x00", []string{"a.go", "b.go"}},
		{"R  new.go\x00old.go\x00 M z\x00", []string{"new.go", "z"}},
		{"C  copy\x00orig\x00RM moved\x00from\x00", []string{"copy", "moved"}},
		{"?? with space.txt\x00?? line\nbreak\x00", []string{"line\nbreak", "with space.txt"}},
		{"UU conflict\x00AA conflict\x00", []string{"conflict"}},
	}
	for _, tc := range tests {
		if got := parsePorcelainZ(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parsePorcelainZ(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCheckpointText(t *testing.T) {
	tests := []struct {
		name string
		c    Checkpoint
		want string
	}{
		{"no git", Checkpoint{}, noCheckpointText},
		{"clean", Checkpoint{Git: true, Head: "abc", Branch: "dev"}, "HEAD: abc\nBranch: dev\nWorking tree: clean"},
		{"dirty", Checkpoint{Git: true, Head: "abc", Branch: "dev", DirtyHash: "ff", ChangedPaths: []string{"a", "b\nc"}, OmittedPaths: 3},
			"HEAD: abc\nBranch: dev\nDirty-state hash: ff\nChanged paths:\n- a\n- \"b\\nc\"\n- ... and 3 more"},
		{"incomplete", Checkpoint{Git: true, Head: "abc", Detached: true, Incomplete: "git status: context deadline exceeded"},
			"HEAD: abc\nBranch: (detached)\nWorking tree: unknown (git status: context deadline exceeded)"},
	}
	for _, tc := range tests {
		if got := tc.c.Text(); got != tc.want {
			t.Errorf("%s: Text() = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTakeCheckpoint_IgnoresGitDirEnv proves an inherited GIT_DIR cannot
// make the checkpoint describe another repository than dir's.
func TestTakeCheckpoint_IgnoresGitDirEnv(t *testing.T) {
	needGit(t)
	dir := newGitRepo(t)
	other := newGitRepo(t)
	git(t, other, "checkout", "-q", "-b", "other-branch")
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)
	if c := TakeCheckpoint(context.Background(), dir); c.Branch != "main" {
		t.Errorf("Branch = %q, want main (GIT_DIR leaked into git calls)", c.Branch)
	}
}

// TestTakeCheckpoint_StatusFailure uses a git wrapper whose status command
// fails: the checkpoint keeps HEAD and branch and says the state is unknown.
func TestTakeCheckpoint_StatusFailure(t *testing.T) {
	needGit(t)
	real, _ := exec.LookPath("git")
	dir := newGitRepo(t)
	wrapper := filepath.Join(t.TempDir(), "git")
	script := "#!/bin/sh\nif [ \"$2\" = status ]; then echo 'fatal: index broken' >&2; exit 128; fi\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	old := gitBinary
	gitBinary = wrapper
	t.Cleanup(func() { gitBinary = old })
	c := TakeCheckpoint(context.Background(), dir)
	if !c.Git || c.Head == "" || c.Branch != "main" || c.DirtyHash != "" {
		t.Fatalf("checkpoint = %+v", c)
	}
	if !strings.Contains(c.Text(), "Working tree: unknown (git status failed: git status: exit status 128: fatal: index broken)") {
		t.Errorf("Text() = %q", c.Text())
	}
}
