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

// qwenSource reads Qwen Code 0.24.x:
// <root>/projects/<cwd, every char outside [A-Za-z0-9] -> '-'>/chats/<id>.jsonl,
// root = $QWEN_RUNTIME_DIR, else $QWEN_HOME, else ~/.qwen. Archived chats
// (chats/archive/) are not sessions of the checkout any more.
type qwenSource struct{ fileStore }

// Store-override variables, strongest first.
const (
	qwenRuntimeEnv = "QWEN_RUNTIME_DIR"
	qwenHomeEnv    = "QWEN_HOME"
)

// QwenSource returns the Qwen Code store reader.
func QwenSource() Source { return qwenSource{} }

func (qwenSource) Harness() string { return "qwen" }

func (qwenSource) StoreEnv() []string { return []string{qwenRuntimeEnv, qwenHomeEnv} }

func (qwenSource) StoreRoot(env Env) string {
	for _, k := range []string{qwenRuntimeEnv, qwenHomeEnv} {
		if v := env.lookup(k); v != "" {
			return v
		}
	}
	return filepath.Join(env.Home, ".qwen")
}

// qwenFold mirrors Qwen's sanitizeCwd: every character outside [A-Za-z0-9]
// becomes '-' (per UTF-16 code unit, as in JavaScript).
func qwenFold(cwd string) string {
	var b strings.Builder
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

func (q qwenSource) chatsDir(env Env, cwd string) string {
	return filepath.Join(q.StoreRoot(env), "projects", qwenFold(cwd), "chats")
}

// WatchRoots returns the checkout's chats directory, canonical and as given.
func (q qwenSource) WatchRoots(env Env, checkout string) []string {
	var dirs []string
	if canon, ok := canonical(checkout); ok {
		dirs = append(dirs, q.chatsDir(env, canon))
	}
	abs, _ := filepath.Abs(checkout)
	if d := q.chatsDir(env, abs); len(dirs) == 0 || d != dirs[0] {
		dirs = append(dirs, d)
	}
	return dirs
}

func (q qwenSource) List(env Env, checkout string, limit int) ([]Session, error) {
	ss, err := q.sessions(env, checkout, time.Time{})
	return limitSessions(ss, limit), err
}

func (q qwenSource) CreatedSince(env Env, checkout string, since time.Time) ([]Session, error) {
	return q.sessions(env, checkout, since.Add(-createdSlack))
}

func (q qwenSource) sessions(env Env, checkout string, since time.Time) ([]Session, error) {
	canon, ok := canonical(checkout)
	if !ok {
		return nil, nil // fail closed
	}
	files, err := jsonlFiles(q.chatsDir(env, canon), maxScanFiles, func(string) bool { return true })
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list qwen sessions: %w", err)
	}
	var out []Session
	for _, p := range files {
		s, ok := statSession(Session{Harness: "qwen", Path: p, ID: strings.TrimSuffix(filepath.Base(p), ".jsonl")})
		if !ok || s.ModTime.Before(since) {
			continue
		}
		if s.Cwd = qwenHeaderCwd(p); sameDir(s.Cwd, canon) {
			out = append(out, s)
		}
	}
	newestFirst(out)
	return out, nil
}

// qwenHeaderCwd returns the cwd of the first record that has one.
func qwenHeaderCwd(path string) string {
	var cwd string
	_ = scanHeader(path, headerLineMax, func(rec []byte) bool {
		cwd = str(jsonx.Get(rec, "cwd"))
		return cwd == ""
	})
	return cwd
}

// Find probes every project's chats directory for <id>.jsonl.
func (q qwenSource) Find(env Env, id string) (Session, Existence, error) {
	if !validID(id) {
		return Session{}, Absent, nil
	}
	projects := filepath.Join(q.StoreRoot(env), "projects")
	ents, err := os.ReadDir(projects)
	if err != nil {
		ex, err := findResult(err)
		return Session{}, ex, wrapFind("qwen", err)
	}
	var unknown error
	for i, e := range ents {
		if i >= maxFindEntries {
			return Session{}, Unknown, fmt.Errorf("find qwen session: more than %d project directories", maxFindEntries)
		}
		if !e.IsDir() {
			continue
		}
		s := Session{Harness: "qwen", ID: id, Path: filepath.Join(projects, e.Name(), "chats", id+".jsonl")}
		st, err := os.Stat(s.Path)
		switch {
		case err == nil && st.Mode().IsRegular():
			s.ModTime, s.Size, s.Cwd = st.ModTime(), st.Size(), qwenHeaderCwd(s.Path)
			return s, Present, nil
		case err == nil:
			unknown = fmt.Errorf("find qwen session: %s is not a regular file", s.Path)
		case !errors.Is(err, fs.ErrNotExist):
			unknown = err
		}
	}
	if unknown != nil {
		return Session{}, Unknown, wrapFind("qwen", unknown)
	}
	return Session{}, Absent, nil
}

func (qwenSource) Read(ctx context.Context, s Session, from Cursor, opt ReadOptions, emit func(Batch) error) error {
	return readJSONL(ctx, s.Path, from, opt, qwenParser{}, emit)
}
