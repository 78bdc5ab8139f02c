package launcher

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/repo"
)

// A checkout's workstream scope on this machine (docs/workstream-identity.md,
// "Portable identity"): the repository is keyed by its root commit, so
// clones on several machines share their workstreams; each machine keeps
// its own mapping from a checkout to that key in <data home>/checkouts/.

// checkoutsDir is the data home's directory of checkout mappings.
const checkoutsDir = "checkouts"

// mapping is what a machine remembers about one checkout: the scope it
// maps to and why. Final mappings are reused as long as the checkout is the
// same repository (same common dir, same file identity); provisional ones
// (no commit yet, a shallow clone, git unavailable) are recomputed on every
// launch until they can become final, and then their workstreams move.
type mapping struct {
	V int `json:"v"`
	// Path is the checkout's canonical root; Machine the machine id it was
	// mapped on (a changed AI_MEMORY_MACHINE_ID remaps).
	Path    string `json:"path"`
	Machine string `json:"machine"`
	// Stamp identifies the common dir's file (device and inode), so a
	// repository deleted and cloned again at the same path is remapped.
	Stamp string `json:"stamp"`
	// Kind is "shared" (the machine's checkout of the repository that holds
	// its shared workstreams), "local" (a linked worktree or a further clone
	// on this machine: same repository, own workstreams) or "provisional".
	Kind       string `json:"kind"`
	Why        string `json:"why,omitempty"`
	RootCommit string `json:"root_commit,omitempty"`
	Repo       string `json:"repo"`
	Worktree   string `json:"worktree"`
}

const mappingVersion = 1

// Mapping kinds.
const (
	kindShared      = "shared"
	kindLocal       = "local"
	kindProvisional = "provisional"
)

// ResolveScope is the workstream scope of the checkout id on the machine
// of db. It reuses the data home's mapping of the checkout, computing it
// (git, once) when there is none, and moves into the scope the workstreams
// an older identity of the checkout left behind: the path-keyed scope of
// ai-memory before portable identity (checked on every call: one indexed
// read when there is nothing, so a ledger switched to or pushed later is
// migrated too) and the provisional scope it had before its first commit.
func ResolveScope(ctx context.Context, db ledger.Ledger, id repo.Identity) (ledger.Scope, error) {
	machine := db.Machine()
	if machine == "" {
		return ledger.Scope{}, errors.New("identify checkout: the ledger has no machine id")
	}
	m, prev, err := checkoutMapping(ctx, db.Home(), machine, id)
	if err != nil {
		return ledger.Scope{}, err
	}
	scope := ledger.Scope{RepoFingerprint: m.Repo, WorktreeFingerprint: m.Worktree, Cwd: id.Root}
	from := []ledger.Scope{LegacyScope(id)}
	if prev != nil && (prev.Repo != m.Repo || prev.Worktree != m.Worktree) {
		from = append(from, ledger.Scope{RepoFingerprint: prev.Repo, WorktreeFingerprint: prev.Worktree})
	}
	for _, f := range from {
		if _, err := db.MoveScope(ctx, f, scope); err != nil {
			return ledger.Scope{}, fmt.Errorf("move this checkout's workstreams to its portable identity: %w", err)
		}
	}
	return scope, nil
}

// checkoutMapping returns the mapping of id, computing and recording it
// when the stored one is missing, stale or provisional; prev is the stored
// one it replaced (nil when none or unchanged).
func checkoutMapping(ctx context.Context, home, machine string, id repo.Identity) (mapping, *mapping, error) {
	if !id.Git {
		// Outside git there is nothing to share: a local identity, salted
		// with the machine id so it never meets another machine's.
		return mapping{Kind: kindLocal, Repo: repo.LocalRepo(machine, id.Root), Worktree: repo.LocalWorktree(machine, id.Root)}, nil, nil
	}
	path := mappingPath(home, id)
	stored, ok := readMapping(path)
	stamp := fileStamp(id.CommonDir)
	if ok && stored.Kind != kindProvisional && stored.Path == id.Root && stored.Machine == machine && stored.Stamp == stamp {
		return stored, nil, nil
	}
	m := computeMapping(ctx, home, machine, id)
	m.V, m.Path, m.Machine, m.Stamp = mappingVersion, id.Root, machine, stamp
	if ok && stored == m {
		return m, nil, nil
	}
	if err := writeMapping(home, path, m); err != nil {
		return m, nil, err
	}
	var prev *mapping
	if ok && stored.Machine == machine && stored.Path == id.Root {
		prev = &stored
	}
	return m, prev, nil
}

// computeMapping maps a git checkout: its root commit gives the shared
// repository key; the machine's first checkout of the repository holds the
// shared workstreams and every other (a linked worktree, another clone on
// this machine) gets its own; without a root commit the mapping is
// provisional and local.
func computeMapping(ctx context.Context, home, machine string, id repo.Identity) mapping {
	root := repo.RootCommit(ctx, id)
	if root.State != repo.RootFound {
		return mapping{Kind: kindProvisional, Why: rootWhy(root),
			Repo: repo.LocalRepo(machine, id.CommonDir), Worktree: repo.LocalWorktree(machine, id.Root)}
	}
	m := mapping{RootCommit: root.Commit, Repo: repo.PortableRepo(root.Commit)}
	if id.IsMainCheckout() && !claimedElsewhere(home, machine, root.Commit, id.Root) {
		m.Kind, m.Worktree = kindShared, repo.PortableWorktree(root.Commit)
		return m
	}
	m.Kind, m.Worktree = kindLocal, repo.LocalWorktree(machine, id.Root)
	return m
}

func rootWhy(r repo.Root) string {
	switch r.State {
	case repo.RootUnborn:
		return "no commit yet"
	case repo.RootShallow:
		return "shallow clone"
	}
	if r.Err != nil {
		return "git: " + r.Err.Error()
	}
	return "git unavailable"
}

// claimedElsewhere reports whether another checkout of this machine still
// holds the repository's shared workstreams: a stored shared mapping of
// the same root commit at another path that is still that repository's
// checkout. A mapping whose checkout is gone (moved, deleted) does not
// count, so a moved repository keeps its workstreams.
func claimedElsewhere(home, machine, rootCommit, path string) bool {
	ents, err := os.ReadDir(filepath.Join(home, checkoutsDir))
	if err != nil {
		return false
	}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		m, ok := readMapping(filepath.Join(home, checkoutsDir, e.Name()))
		if !ok || m.Kind != kindShared || m.RootCommit != rootCommit || m.Machine != machine || m.Path == path {
			continue
		}
		if other, err := repo.Identify(m.Path); err == nil && other.Root == m.Path && fileStamp(other.CommonDir) == m.Stamp {
			return true
		}
	}
	return false
}

// mappingPath names a checkout's mapping by its path fingerprint.
func mappingPath(home string, id repo.Identity) string {
	return filepath.Join(home, checkoutsDir, id.WorktreeFingerprint+".json")
}

func readMapping(path string) (mapping, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return mapping{}, false
	}
	var m mapping
	if json.Unmarshal(data, &m) != nil || m.V != mappingVersion || m.Repo == "" || m.Worktree == "" {
		return mapping{}, false // unreadable: recomputed and rewritten
	}
	return m, true
}

// writeMapping replaces the mapping file atomically (0600 in a 0700 dir).
func writeMapping(home, path string, m mapping) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	dir := filepath.Join(home, checkoutsDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("record checkout identity: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".mapping-*")
	if err != nil {
		return fmt.Errorf("record checkout identity: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(data)
	if err := errors.Join(werr, tmp.Close()); err != nil {
		return fmt.Errorf("record checkout identity %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("record checkout identity %s: %w", path, err)
	}
	return nil
}

// LegacyScope is the path-keyed scope ai-memory used before portable
// identity (repo.Identify's fingerprints): where an upgraded ledger's
// workstreams of this checkout are until ResolveScope moves them.
func LegacyScope(id repo.Identity) ledger.Scope {
	return ledger.Scope{RepoFingerprint: id.RepoFingerprint, WorktreeFingerprint: id.WorktreeFingerprint, Cwd: id.Root}
}
