package repo

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkIdentify measures discovery from a subdirectory five levels
// below the worktree top (filesystem only, no git binary).
func BenchmarkIdentify(b *testing.B) {
	base := canon(b, b.TempDir())
	fakeGitDir(b, filepath.Join(base, ".git"), "")
	deep := filepath.Join(base, "a", "b", "c", "d", "e")
	mkdirs(b, deep)
	for b.Loop() {
		if _, err := Identify(deep); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTakeCheckpoint measures a checkpoint of a small dirty repo
// (four git processes).
func BenchmarkTakeCheckpoint(b *testing.B) {
	needGit(b)
	dir := newGitRepo(b)
	writeFile(b, filepath.Join(dir, "dirty.txt"), "x")
	for b.Loop() {
		if c := TakeCheckpoint(context.Background(), dir); c.DirtyHash == "" {
			b.Fatal("expected a dirty checkpoint")
		}
	}
}
