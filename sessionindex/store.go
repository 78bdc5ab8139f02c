package sessionindex

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// The index lives in the user's project and is meant to be read by people
// and other tools, so it is world-readable (unlike ai-memory's data home).
const (
	dirMode  os.FileMode = 0o755
	fileMode os.FileMode = 0o644
)

// maxCommitAttempts bounds the compare-and-retry loop against writers that
// replace the file without taking the lock.
const maxCommitAttempts = 8

// ErrNotFound is returned when no record matches the given selector.
var ErrNotFound = errors.New("session not found")

// CorruptError reports an index file that cannot be parsed. [Store.Load]
// returns it; writes move such a file aside instead.
type CorruptError struct {
	Path string
	Err  error
}

// Error says what is wrong and what the next write will do about it.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("session index %s is not valid JSON in the expected shape (%v); the next `ai-memory sessions start` moves it aside", e.Path, e.Err)
}

// Unwrap returns the parse error.
func (e *CorruptError) Unwrap() error { return e.Err }

// Store reads and writes the index of one project.
type Store struct {
	Root  string           // project root; the index is Path(Root)
	Now   func() time.Time // clock; time.Now when nil
	Alive func(runtime, nativeID string) bool
	Warn  io.Writer // where notices such as "moved corrupt file aside" go; os.Stderr when nil
	// LockTimeout bounds the wait for the sidecar lock; 10s when zero.
	LockTimeout time.Duration

	// beforeCommit, when set by tests, runs after the new content is
	// staged and before the unchanged-check and rename.
	beforeCommit func()
}

// Path returns the index file of the project rooted at root.
func Path(root string) string {
	return filepath.Join(root, ".agent-sessions", "session-history.json")
}

// lockPath returns the sidecar lock file that every writer flocks.
func lockPath(root string) string { return Path(root) + ".lock" }

// Enabled reports whether the launcher should keep an index for root: it is
// a git worktree root (has a .git entry) or already has .agent-sessions/.
func Enabled(root string) bool {
	if root == "" {
		return false
	}
	if _, err := os.Lstat(filepath.Join(root, ".git")); err == nil {
		return true
	}
	fi, err := os.Stat(filepath.Join(root, ".agent-sessions"))
	return err == nil && fi.IsDir()
}

// Load reads the index without locking (writers replace it atomically). A
// missing file is an empty index; an unparseable one is a *[CorruptError].
func (s *Store) Load() (Index, error) {
	st, err := readState(Path(s.Root))
	if err != nil {
		return Index{}, err
	}
	ix, err := parseIndex(st.data)
	if err != nil {
		return Index{}, &CorruptError{Path: Path(s.Root), Err: err}
	}
	return ix, nil
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC().Truncate(time.Second)
	}
	return time.Now().UTC().Truncate(time.Second)
}

func (s *Store) warn() io.Writer {
	if s.Warn != nil {
		return s.Warn
	}
	return os.Stderr
}

// fileState is the content of the index file at one moment.
type fileState struct {
	data   []byte
	exists bool
}

func (a fileState) same(b fileState) bool {
	return a.exists == b.exists && string(a.data) == string(b.data)
}

func readState(path string) (fileState, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return fileState{}, nil
	}
	if err != nil {
		return fileState{}, fmt.Errorf("read session index: %w", err)
	}
	return fileState{data: data, exists: true}, nil
}

func (s *Store) lockTimeout() time.Duration {
	if s.LockTimeout > 0 {
		return s.LockTimeout
	}
	return 10 * time.Second
}
