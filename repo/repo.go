// Package repo identifies the repository and worktree a directory belongs to
// and records repository checkpoints.
//
// Identity is computed from the filesystem alone (no git binary needed), so
// a run and a hook capture started from any subdirectory of one worktree
// agree on the same workstream key. The algorithm is specified in
// docs/workstream-identity.md; change it only together with that document,
// because a changed fingerprint orphans every stored workstream.
//
// Checkpoints use the git binary when it is installed and degrade to
// "no checkpoint" otherwise; they never fail.
package repo

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Identity is the workstream key of a directory.
type Identity struct {
	Root                string // canonical worktree top-level (or the canonical dir when not in git)
	GitDir              string // canonical git dir of this worktree ("" when not in git)
	CommonDir           string // canonical git common dir ("" when not in git)
	RepoFingerprint     string
	WorktreeFingerprint string
	Git                 bool
}

// Fingerprint domains. Each hashed string is domain + "\x00" + canonical
// path, so a git worktree and a plain directory at the same path, or a repo
// and a worktree fingerprint of the same path, can never collide.
const (
	domainGitRepo     = "ai-memory/git-repo"
	domainGitWorktree = "ai-memory/git-worktree"
	domainDirRepo     = "ai-memory/dir-repo"
	domainDirWorktree = "ai-memory/dir-worktree"
)

// fingerprintHexLen is the number of hex characters kept (128 bits): plenty
// to avoid collisions between the workstreams of one machine.
const fingerprintHexLen = 32

// Identify returns the identity of dir: the git worktree and common dir that
// contain it, or, outside git, the directory itself. It fails only when dir
// cannot be resolved (missing, unreadable, not a directory) or when a .git
// entry on the way up is broken.
func Identify(dir string) (Identity, error) {
	canon, err := canonicalDir(dir)
	if err != nil {
		return Identity{}, err
	}
	loc, found, err := discover(canon)
	if err != nil {
		return Identity{}, err
	}
	if !found {
		return Identity{
			Root:                canon,
			RepoFingerprint:     fingerprint(domainDirRepo, canon),
			WorktreeFingerprint: fingerprint(domainDirWorktree, canon),
		}, nil
	}
	return Identity{
		Root:                loc.root,
		GitDir:              loc.gitDir,
		CommonDir:           loc.commonDir,
		RepoFingerprint:     fingerprint(domainGitRepo, loc.commonDir),
		WorktreeFingerprint: fingerprint(domainGitWorktree, loc.root),
		Git:                 true,
	}, nil
}

// canonicalDir returns dir as an absolute, cleaned, symlink-free path and
// checks that it is a readable directory.
func canonicalDir(dir string) (string, error) {
	if dir == "" {
		return "", errors.New("identify workstream: empty directory path")
	}
	canon, err := canonicalPath(dir)
	if err != nil {
		return "", fmt.Errorf("identify workstream: %w", err)
	}
	fi, err := os.Stat(canon)
	if err != nil {
		return "", fmt.Errorf("identify workstream: %w", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("identify workstream: %s is not a directory; run from inside your project directory", canon)
	}
	if _, err := os.ReadDir(canon); err != nil {
		return "", fmt.Errorf("identify workstream: %w", err)
	}
	return canon, nil
}

// canonicalPath makes p absolute, resolves every symlink and cleans it. The
// path must exist.
func canonicalPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("absolute path of %s: %w", p, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", abs, err)
	}
	return filepath.Clean(real), nil
}

// fingerprint is the first 32 hex chars of SHA-256(domain + "\x00" + path).
func fingerprint(domain, path string) string {
	sum := sha256.Sum256([]byte(domain + "\x00" + path))
	return hex.EncodeToString(sum[:])[:fingerprintHexLen]
}
