package repo

import (
	"bufio"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Portable identity (docs/workstream-identity.md, "Portable identity"): a
// repository is recognised across machines by the root commit its clones
// share, not by where it is checked out.

// Fingerprint domains of the portable and the machine-local identities.
const (
	domainRootRepo      = "ai-memory/git-root"
	domainRootWorktree  = "ai-memory/git-root-main"
	domainLocalRepo     = "ai-memory/local-repo"
	domainLocalWorktree = "ai-memory/local-worktree"
)

// RootState says what RootCommit found.
type RootState int

// The outcomes of RootCommit.
const (
	// RootFound: Root is the first-parent root commit of HEAD.
	RootFound RootState = iota
	// RootUnborn: HEAD has no commit yet.
	RootUnborn
	// RootShallow: a shallow clone, whose oldest commit is not the root.
	RootShallow
	// RootUnknown: git is missing or failed; Err says why.
	RootUnknown
)

// Root is the root commit of a checkout, or why there is none.
type Root struct {
	State RootState
	// Commit is the full hex id of the root commit (RootFound only).
	Commit string
	Err    error
}

// RootCommit finds the first-parent root of HEAD: the commit reached from
// HEAD by following first parents until one has none (`git rev-list
// --first-parent --max-parents=0 HEAD`, which prints exactly one). Roots
// of merged-in histories (a subtree merge, an unrelated history joined
// later) are second parents and never chosen, so a merge cannot change a
// repository's identity. It runs git once (a few ms; the caller caches
// the answer per checkout) and never fails: a shallow clone, a repository
// without commits, a missing git are states of the result.
func RootCommit(ctx context.Context, id Identity) Root {
	if !id.Git {
		return Root{State: RootUnknown, Err: errors.New("not a git repository")}
	}
	if isFile(filepath.Join(id.CommonDir, "shallow")) {
		return Root{State: RootShallow}
	}
	if unbornHead(id) {
		return Root{State: RootUnborn}
	}
	out, err := runGit(ctx, id.Root, "rev-list", "--first-parent", "--max-parents=0", "HEAD")
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) || ctx.Err() != nil {
			return Root{State: RootUnknown, Err: err}
		}
		if gitHead(ctx, id.Root) == "" && gitWorks(ctx, id.Root) {
			return Root{State: RootUnborn}
		}
		return Root{State: RootUnknown, Err: err}
	}
	lines := strings.Fields(out)
	if len(lines) != 1 || !isHexID(lines[0]) {
		return Root{State: RootUnknown, Err: errors.New("git rev-list printed no single root commit")}
	}
	return Root{State: RootFound, Commit: lines[0]}
}

// unbornHead reports, from the files git itself reads, that HEAD names a
// branch with no commit yet (a fresh `git init`, `git checkout --orphan`):
// the branch has neither a loose ref nor a packed one. A checkout's identity
// stays provisional while it has no commit, so it is computed again on
// every launch; this answers that launch without starting git three times
// (~4 ms). It says false whenever it cannot tell (a reftable repository, an
// unreadable or detached HEAD), and RootCommit then asks git.
func unbornHead(id Identity) bool {
	if id.GitDir == "" || id.CommonDir == "" || isDir(filepath.Join(id.CommonDir, "reftable")) {
		return false
	}
	head, err := readSmallFile(filepath.Join(id.GitDir, "HEAD"))
	if err != nil {
		return false
	}
	ref, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: ")
	if !ok || !strings.HasPrefix(ref, "refs/heads/") {
		return false
	}
	if _, err := os.Lstat(filepath.Join(id.CommonDir, filepath.FromSlash(ref))); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	return !packedRef(filepath.Join(id.CommonDir, "packed-refs"), ref)
}

// packedRef reports whether the packed-refs file lists ref, or cannot be
// read (true: let git decide).
func packedRef(path, ref string) bool {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		return true
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		// "<object id> <refname>"; comments start with '#', peeled tags with '^'.
		if _, name, ok := strings.Cut(sc.Text(), " "); ok && name == ref {
			return true
		}
	}
	return sc.Err() != nil
}

// gitWorks reports whether git runs in dir at all (so a failed rev-list on
// an unborn HEAD is told from a broken repository).
func gitWorks(ctx context.Context, dir string) bool {
	_, err := runGit(ctx, dir, "rev-parse", "--git-dir")
	return err == nil
}

// isHexID reports whether s is a full SHA-1 or SHA-256 object id.
func isHexID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

// IsMainCheckout reports whether id is a repository's own checkout (its
// git dir is the common dir: a clone, a submodule checkout, a bare
// repository), not a linked worktree (`git worktree add`).
func (id Identity) IsMainCheckout() bool {
	return id.Git && id.GitDir == id.CommonDir
}

// PortableRepo is the repository fingerprint of a root commit: the same in
// every clone on every machine.
func PortableRepo(rootCommit string) string { return fingerprint(domainRootRepo, rootCommit) }

// PortableWorktree is the worktree fingerprint of a repository's shared
// checkout: one per machine (see docs), all sharing the same workstreams.
func PortableWorktree(rootCommit string) string {
	return fingerprint(domainRootWorktree, rootCommit)
}

// LocalRepo is a repository fingerprint that exists on one machine only:
// path salted with the machine id, so it never collides with another
// machine's, even at the same path in a shared ledger.
func LocalRepo(machine, path string) string {
	return fingerprint(domainLocalRepo, machine+"\x00"+path)
}

// LocalWorktree is LocalRepo for a worktree (a linked worktree, a second
// clone on one machine, a directory outside git).
func LocalWorktree(machine, path string) string {
	return fingerprint(domainLocalWorktree, machine+"\x00"+path)
}
