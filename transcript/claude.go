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

// claudeFoldMax is the folded project-directory length beyond which Claude
// Code shortens the name (and appends a digest we do not reproduce): longer
// names are matched by this prefix and then by the recorded cwd.
const claudeFoldMax = 200

// ClaudeProjectDir returns the Claude Code project directory of cwd under
// the store root: root/projects/<cwd with every character outside
// [A-Za-z0-9] replaced by '-'>.
func ClaudeProjectDir(root, cwd string) string {
	return filepath.Join(root, "projects", claudeFold(cwd))
}

// claudeFold mirrors Claude Code's JavaScript replace(/[^a-zA-Z0-9]/g, "-"),
// which works on UTF-16 code units: a character outside the BMP becomes two
// dashes.
func claudeFold(cwd string) string {
	var b strings.Builder
	b.Grow(len(cwd))
	for _, r := range cwd {
		switch {
		case r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'):
			b.WriteRune(r)
		case r > 0xFFFF:
			b.WriteString("--")
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}

// claudeSource reads Claude Code: <root>/projects/<folded cwd>/<id>.jsonl.
// Subagent transcripts live in <id>/subagents/ and are never sessions.
type claudeSource struct{ fileStore }

// claudeConfigEnv names the store-override variable.
const claudeConfigEnv = "CLAUDE_CONFIG_DIR"

// ClaudeSource returns the Claude Code store reader.
func ClaudeSource() Source { return claudeSource{} }

func (claudeSource) Harness() string { return "claude" }

func (claudeSource) StoreEnv() []string { return []string{claudeConfigEnv} }

func (claudeSource) StoreRoot(env Env) string {
	if v := env.lookup(claudeConfigEnv); v != "" {
		return v
	}
	return filepath.Join(env.Home, ".claude")
}

// WatchRoots returns the project directory of the checkout, spelled both
// with the canonical path (what Claude records) and, if different, as given.
func (c claudeSource) WatchRoots(env Env, checkout string) []string {
	root := c.StoreRoot(env)
	abs, _ := filepath.Abs(checkout)
	dirs := []string{}
	if canon, ok := canonical(checkout); ok {
		dirs = append(dirs, ClaudeProjectDir(root, canon))
	}
	if d := ClaudeProjectDir(root, abs); len(dirs) == 0 || d != dirs[0] {
		dirs = append(dirs, d)
	}
	return dirs
}

func (c claudeSource) List(env Env, checkout string, limit int) ([]Session, error) {
	ss, err := c.sessions(env, checkout, time.Time{})
	return limitSessions(ss, limit), err
}

func (c claudeSource) CreatedSince(env Env, checkout string, since time.Time) ([]Session, error) {
	return c.sessions(env, checkout, since.Add(-createdSlack))
}

// sessions returns the checkout's sessions modified at or after since.
func (c claudeSource) sessions(env Env, checkout string, since time.Time) ([]Session, error) {
	canon, ok := canonical(checkout)
	if !ok {
		return nil, nil // fail closed: an unresolvable checkout owns nothing
	}
	files, err := c.candidates(c.StoreRoot(env), canon)
	if err != nil {
		return nil, err
	}
	var out []Session
	var skipped unreadable
	for _, p := range files {
		s, ok := statSession(Session{Harness: "claude", Path: p, ID: strings.TrimSuffix(filepath.Base(p), ".jsonl")})
		if !ok || s.ModTime.Before(since) {
			continue
		}
		var err error
		if s.Cwd, err = claudeHeaderCwdErr(p); err != nil {
			skipped.add("claude", err)
		} else if sameDir(s.Cwd, canon) {
			out = append(out, s)
		}
	}
	newestFirst(out)
	return out, skipped.err()
}

// candidates lists the session files of the project directories that can
// belong to canon. A missing store or project directory is not an error.
func (c claudeSource) candidates(root, canon string) ([]string, error) {
	full := claudeFold(canon)
	match := func(name string) bool { return name == full }
	if len(full) > claudeFoldMax {
		match = func(name string) bool { return strings.HasPrefix(name, full[:claudeFoldMax]) }
	}
	projects := filepath.Join(root, "projects")
	ents, err := os.ReadDir(projects)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list claude projects: %w", err)
	}
	var files []string
	for _, e := range ents {
		if !match(e.Name()) || !isStoreDir(projects, e) {
			continue
		}
		more, err := jsonlFiles(filepath.Join(projects, e.Name()), maxScanFiles-len(files), func(string) bool { return true })
		if err != nil {
			return files, fmt.Errorf("list claude sessions: %w", err)
		}
		files = append(files, more...)
	}
	return files, nil
}

// claudeHeaderCwd returns the cwd of the first header record that has one.
func claudeHeaderCwd(path string) string {
	cwd, _ := claudeHeaderCwdErr(path)
	return cwd
}

// claudeHeaderCwdErr is claudeHeaderCwd that also says when the header
// could not be read (such a session cannot be attributed to a checkout).
func claudeHeaderCwdErr(path string) (string, error) {
	var cwd string
	err := scanHeader(path, headerLineMax, func(rec []byte) bool {
		cwd = str(jsonx.Get(rec, "cwd"))
		return cwd == ""
	})
	return cwd, err
}

// Find probes every project directory for <id>.jsonl.
func (c claudeSource) Find(env Env, id string) (Session, Existence, error) {
	if !validID(id) {
		return Session{}, Absent, nil
	}
	projects := filepath.Join(c.StoreRoot(env), "projects")
	ents, err := os.ReadDir(projects)
	if err != nil {
		ex, err := findResult(err)
		return Session{}, ex, wrapFind("claude", err)
	}
	var unknown error
	for i, e := range ents {
		if i >= maxFindEntries {
			return Session{}, Unknown, fmt.Errorf("find claude session: more than %d project directories", maxFindEntries)
		}
		if !isStoreDir(projects, e) {
			continue
		}
		s := Session{Harness: "claude", ID: id, Path: filepath.Join(projects, e.Name(), id+".jsonl")}
		st, err := statTranscript(s.Path)
		switch {
		case err == nil:
			s.ModTime, s.Size, s.Cwd = st.ModTime(), st.Size(), claudeHeaderCwd(s.Path)
			return s, Present, nil
		case !errors.Is(err, fs.ErrNotExist):
			unknown = err
		}
	}
	if unknown != nil {
		return Session{}, Unknown, wrapFind("claude", unknown)
	}
	return Session{}, Absent, nil
}

func wrapFind(harness string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("find %s session: %w", harness, err)
}

func (claudeSource) Read(ctx context.Context, s Session, from Cursor, opt ReadOptions, emit func(Batch) error) error {
	return readJSONL(ctx, s.Path, from, opt, claudeParser{}, emit)
}
