package transcript

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// commandCodeSource reads Command Code (npm `command-code` 1.64.x):
// ~/.commandcode/projects/<slugify(cwd)>/<uuid>.jsonl (beside
// <uuid>.meta.json and <uuid>.checkpoints.jsonl), a Pi-style tree of
// entries (id/parentId) under a {"type":"session"} header that names the
// id and the cwd. Only HOME moves the store. The slug comes from
// @sindresorhus/slugify (lower case, camelCase split, transliterated), so
// the header's cwd decides; the plain-ASCII slug of the checkout only
// narrows the scan when that folder exists.
type commandCodeSource struct{ fileStore }

// CommandCodeSource returns the Command Code store reader.
func CommandCodeSource() Source { return commandCodeSource{} }

func (commandCodeSource) Harness() string { return "command-code" }

// StoreEnv is empty: Command Code reads its store from the home directory
// only.
func (commandCodeSource) StoreEnv() []string { return nil }

func (commandCodeSource) StoreRoot(env Env) string { return filepath.Join(env.Home, ".commandcode") }

func (c commandCodeSource) projects(env Env) string {
	return filepath.Join(c.StoreRoot(env), "projects")
}

// WatchRoots is the projects directory (the checkout's folder name is not
// known for every path).
func (c commandCodeSource) WatchRoots(env Env, checkout string) []string {
	return []string{c.projects(env)}
}

// CommandCodeSlug is the folder name Command Code gives a plain-ASCII,
// lower-case path: runs of characters outside [a-z0-9] become '-', trimmed.
func CommandCodeSlug(p string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(p) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	return b.String()
}

func (c commandCodeSource) List(env Env, checkout string, limit int) ([]Session, error) {
	ss, err := c.sessions(env, checkout, time.Time{})
	return limitSessions(ss, limit), err
}

func (c commandCodeSource) CreatedSince(env Env, checkout string, since time.Time) ([]Session, error) {
	return c.sessions(env, checkout, since.Add(-createdSlack))
}

func (c commandCodeSource) sessions(env Env, checkout string, since time.Time) ([]Session, error) {
	canon, ok := canonical(checkout)
	if !ok {
		return nil, nil // fail closed
	}
	dirs, err := c.candidateDirs(env, canon)
	if err != nil {
		return nil, err
	}
	var out []Session
	scanned := 0
	for _, dir := range dirs {
		files, _ := jsonlFiles(dir, maxScanFiles-scanned, commandCodeSessionFile)
		scanned += len(files)
		for _, f := range files {
			s, ok := statSession(Session{Harness: "command-code", Path: f})
			if !ok || s.ModTime.Before(since) {
				continue
			}
			if s.ID, s.Cwd = commandCodeHeader(f); s.ID != "" && sameDir(s.Cwd, canon) {
				out = append(out, s)
			}
		}
	}
	newestFirst(out)
	return out, nil
}

// commandCodeSessionFile keeps <uuid>.jsonl, not <uuid>.checkpoints.jsonl.
func commandCodeSessionFile(name string) bool {
	return !strings.HasSuffix(name, ".checkpoints.jsonl")
}

// candidateDirs is the checkout's slug folder when it exists, else every
// project folder.
func (c commandCodeSource) candidateDirs(env Env, canon string) ([]string, error) {
	root := c.projects(env)
	if st, err := os.Stat(filepath.Join(root, CommandCodeSlug(canon))); err == nil && st.IsDir() {
		return []string{filepath.Join(root, CommandCodeSlug(canon))}, nil
	}
	ents, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list command-code sessions: %w", err)
	}
	var dirs []string
	for _, e := range ents {
		if len(dirs) >= maxScanFiles {
			break
		}
		if isStoreDir(root, e) {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	return dirs, nil
}

// commandCodeHeader returns the id and cwd of the session header.
func commandCodeHeader(path string) (id, cwd string) {
	_ = scanHeader(path, headerLineMax, func(rec []byte) bool {
		if str(jsonx.Get(rec, "type")) == "session" {
			id, cwd = str(jsonx.Get(rec, "id")), str(jsonx.Get(rec, "cwd"))
		}
		return false
	})
	return id, cwd
}

// Find probes every project folder for <id>.jsonl.
func (c commandCodeSource) Find(env Env, id string) (Session, Existence, error) {
	if !validID(id) {
		return Session{}, Absent, nil
	}
	root := c.projects(env)
	ents, err := os.ReadDir(root)
	if err != nil {
		ex, err := findResult(err)
		return Session{}, ex, wrapFind("command-code", err)
	}
	for i, e := range ents {
		if i >= maxFindEntries {
			return Session{}, Unknown, fmt.Errorf("find command-code session: more than %d project folders", maxFindEntries)
		}
		p := filepath.Join(root, e.Name(), id+".jsonl")
		st, err := statTranscript(p)
		switch {
		case err == nil:
			s := Session{Harness: "command-code", ID: id, Path: p, ModTime: st.ModTime(), Size: st.Size()}
			_, s.Cwd = commandCodeHeader(p)
			return s, Present, nil
		case !errors.Is(err, fs.ErrNotExist) && e.IsDir():
			return Session{}, Unknown, wrapFind("command-code", err)
		}
	}
	return Session{}, Absent, nil
}

// Read imports the branch in use (Command Code keeps Pi's tree: the path
// from the last entry back to the root; see piAbandoned, which only knows
// id/parentId/type and is shared for that reason).
func (commandCodeSource) Read(ctx context.Context, s Session, from Cursor, opt ReadOptions, emit func(Batch) error) error {
	off, err := piAbandoned(s.Path)
	if err != nil {
		return err
	}
	return readJSONL(ctx, s.Path, from, opt, &commandCodeParser{abandoned: off}, emit)
}
