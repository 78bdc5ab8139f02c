// Package repo identifies the repository and worktree a directory belongs to
// and records repository checkpoints.
package repo

import "context"

// Identity is the workstream key of a directory.
type Identity struct {
	Root                string // canonical worktree top-level (or the canonical dir when not in git)
	CommonDir           string // canonical git common dir ("" when not in git)
	RepoFingerprint     string
	WorktreeFingerprint string
	Git                 bool
}

// Identify returns the identity of dir. PLACEHOLDER body.
func Identify(dir string) (Identity, error) {
	return Identity{Root: dir, RepoFingerprint: dir, WorktreeFingerprint: dir}, nil
}

// Checkpoint is the state of a worktree at one moment.
type Checkpoint struct {
	Git          bool
	Head         string
	Branch       string
	Detached     bool
	DirtyHash    string
	ChangedPaths []string
	OmittedPaths int
}

// TakeCheckpoint never fails: without git it returns Checkpoint{Git: false}. PLACEHOLDER body.
func TakeCheckpoint(ctx context.Context, dir string) Checkpoint { return Checkpoint{} }

// Text renders the checkpoint as the content of a checkpoint event. PLACEHOLDER body.
func (c Checkpoint) Text() string { return "no git checkpoint" }
