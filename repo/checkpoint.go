package repo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Checkpoint is the state of a worktree at one moment.
type Checkpoint struct {
	Git          bool
	Head         string // full commit sha; "" on an unborn branch
	Branch       string // short branch name; "" when Detached
	Detached     bool
	DirtyHash    string   // hex SHA-256 of `git status --porcelain=v1 -z`; "" when clean or unknown
	ChangedPaths []string // sorted, at most MaxChangedPaths
	OmittedPaths int      // changed paths beyond MaxChangedPaths
	Incomplete   string   // why the dirty state is unknown (e.g. git status timed out); "" when known
}

// MaxChangedPaths bounds Checkpoint.ChangedPaths so a checkpoint event stays
// small even after a mass rename or an untracked build directory.
const MaxChangedPaths = 50

// CheckpointTimeout bounds all git calls of one checkpoint: a checkpoint is
// taken while a person waits for the run to end, so it must not hang on a
// huge repository or a stuck filesystem.
const CheckpointTimeout = 5 * time.Second

// gitBinary is the git executable; tests point it at a missing file to
// exercise the no-git path.
var gitBinary = "git"

// TakeCheckpoint never fails: without git it returns Checkpoint{Git: false}.
// It runs git with optional locks disabled, so it never takes index.lock
// away from an agent working in the same worktree.
func TakeCheckpoint(ctx context.Context, dir string) Checkpoint {
	ctx, cancel := context.WithTimeout(ctx, CheckpointTimeout)
	defer cancel()
	if out, err := runGit(ctx, dir, "rev-parse", "--is-inside-work-tree"); err != nil || strings.TrimSpace(out) != "true" {
		return Checkpoint{}
	}
	c := Checkpoint{Git: true}
	c.Head = gitHead(ctx, dir)
	c.Branch, c.Detached = gitBranch(ctx, dir)
	status, err := runGit(ctx, dir, "status", "--porcelain=v1", "-z", "--untracked-files=normal")
	if err != nil {
		c.Incomplete = "git status failed: " + err.Error()
		return c
	}
	c.setStatus(status)
	return c
}

// gitHead returns the full sha of HEAD, or "" on an unborn branch.
func gitHead(ctx context.Context, dir string) string {
	out, err := runGit(ctx, dir, "rev-parse", "--verify", "-q", "HEAD^{commit}")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// gitBranch returns the short branch name HEAD points to (also for an
// unborn branch), or detached=true.
func gitBranch(ctx context.Context, dir string) (string, bool) {
	out, err := runGit(ctx, dir, "symbolic-ref", "-q", "--short", "HEAD")
	if err != nil {
		return "", true
	}
	return strings.TrimSpace(out), false
}

// setStatus fills DirtyHash and the bounded, sorted ChangedPaths from the
// raw `status --porcelain=v1 -z` output.
func (c *Checkpoint) setStatus(status string) {
	if status == "" {
		return
	}
	sum := sha256.Sum256([]byte(status))
	c.DirtyHash = hex.EncodeToString(sum[:])
	paths := parsePorcelainZ(status)
	if len(paths) > MaxChangedPaths {
		c.OmittedPaths = len(paths) - MaxChangedPaths
		paths = paths[:MaxChangedPaths]
	}
	c.ChangedPaths = paths
}

// parsePorcelainZ returns the sorted, de-duplicated paths of porcelain v1
// -z output. Entries are "XY path\0"; a rename or copy is followed by one
// more NUL-terminated field, the original path, which is skipped.
func parsePorcelainZ(s string) []string {
	fields := strings.Split(s, "\x00")
	seen := make(map[string]bool, len(fields))
	var paths []string
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) < 4 {
			continue
		}
		if p := f[3:]; !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
		if f[0] == 'R' || f[0] == 'C' || f[1] == 'R' || f[1] == 'C' {
			i++
		}
	}
	sort.Strings(paths)
	return paths
}

// runGit runs git in dir with a stable, lock-free, locale-independent
// environment and returns its stdout.
func runGit(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, gitBinary, append([]string{"--no-optional-locks"}, args...)...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("git %s: %w", args[0], ctx.Err())
		}
		return "", fmt.Errorf("git %s: %w: %s", args[0], err, firstLine(stderr.String()))
	}
	return stdout.String(), nil
}

// gitEnv is the caller's environment minus variables that would make git
// look at another repository than the directory's own, plus a fixed locale.
func gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "LC_ALL", "LANG":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C", "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// displayPath keeps one path on one line: a name with control characters
// (git allows newlines in file names) is shown Go-quoted.
func displayPath(p string) string {
	if strings.IndexFunc(p, unicode.IsControl) >= 0 {
		return strconv.Quote(p)
	}
	return p
}

// noCheckpointText is the whole text of a checkpoint outside git.
const noCheckpointText = "No git checkpoint: this directory is not a git worktree (or git is not installed)."

// Text renders the checkpoint as the content of a checkpoint event.
func (c Checkpoint) Text() string {
	if !c.Git {
		return noCheckpointText
	}
	var b strings.Builder
	head := c.Head
	if head == "" {
		head = "(no commits yet)"
	}
	fmt.Fprintf(&b, "HEAD: %s\n", head)
	if c.Detached {
		b.WriteString("Branch: (detached)\n")
	} else {
		fmt.Fprintf(&b, "Branch: %s\n", c.Branch)
	}
	c.writeDirtyState(&b)
	return strings.TrimSuffix(b.String(), "\n")
}

// writeDirtyState writes the working-tree lines of Text.
func (c Checkpoint) writeDirtyState(b *strings.Builder) {
	switch {
	case c.Incomplete != "":
		fmt.Fprintf(b, "Working tree: unknown (%s)\n", c.Incomplete)
		return
	case c.DirtyHash == "":
		b.WriteString("Working tree: clean\n")
		return
	}
	fmt.Fprintf(b, "Dirty-state hash: %s\n", c.DirtyHash)
	b.WriteString("Changed paths:\n")
	for _, p := range c.ChangedPaths {
		fmt.Fprintf(b, "- %s\n", displayPath(p))
	}
	if c.OmittedPaths > 0 {
		fmt.Fprintf(b, "- ... and %d more\n", c.OmittedPaths)
	}
}
