package transcript

import (
	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"

	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// geminiSource reads Gemini CLI chat files:
// <home>/.gemini/tmp/<slug>/chats/session-<YYYY-MM-DDTHH-MM>-<first 8 of id>.jsonl,
// where <home> is $GEMINI_CLI_HOME or the OS home. The slug of a project
// root is recorded twice by the CLI: in <home>/.gemini/projects.json
// ({"projects": {"<root>": "<slug>"}}) and in <slug>/.project_root; older
// releases named the directory after the root's SHA-256 instead. Every
// chat file's first line carries projectHash = hex SHA-256 of the root as
// the CLI spelled it (path.resolve of its cwd), which is what a session is
// matched on: the directory only narrows the search.
type geminiSource struct{ fileStore }

// GeminiSource returns the Gemini CLI transcript source.
func GeminiSource() Source { return geminiSource{} }

func (geminiSource) Harness() string { return "gemini" }

const geminiHomeEnv = "GEMINI_CLI_HOME"

func (geminiSource) StoreEnv() []string { return []string{geminiHomeEnv} }

// StoreRoot is <home>/.gemini: GEMINI_CLI_HOME replaces the home directory,
// not the .gemini directory (the CLI's homedir() and Storage agree).
func (geminiSource) StoreRoot(env Env) string {
	home := env.lookup(geminiHomeEnv)
	if home == "" {
		home = env.Home
	}
	return filepath.Join(home, ".gemini")
}

// WatchRoots returns the tmp tree: the slug directory of a new project is
// created by the CLI at startup, so the parent is what can be watched.
func (g geminiSource) WatchRoots(env Env, checkout string) []string {
	return []string{filepath.Join(g.StoreRoot(env), "tmp")}
}

func (g geminiSource) List(env Env, checkout string, limit int) ([]Session, error) {
	ss, err := g.sessions(env, checkout, time.Time{})
	return limitSessions(ss, limit), err
}

func (g geminiSource) CreatedSince(env Env, checkout string, since time.Time) ([]Session, error) {
	return g.sessions(env, checkout, since.Add(-createdSlack))
}

// GeminiProjectHash is the projectHash Gemini CLI records for a project
// root: hex SHA-256 of the path string, no normalisation.
func GeminiProjectHash(root string) string {
	sum := sha256.Sum256([]byte(root))
	return hex.EncodeToString(sum[:])
}

func (g geminiSource) sessions(env Env, checkout string, since time.Time) ([]Session, error) {
	canon, ok := canonical(checkout)
	if !ok {
		return nil, nil // fail closed
	}
	root := g.StoreRoot(env)
	hash := GeminiProjectHash(canon)
	var out []Session
	var soft error
	for _, dir := range geminiProjectDirs(root, canon) {
		files, err := jsonlFiles(filepath.Join(dir, "chats"), maxScanFiles-len(out), geminiChatName)
		if err != nil && !errors.Is(err, fs.ErrNotExist) && soft == nil {
			soft = err
		}
		for _, p := range files {
			s, ok := statSession(Session{Harness: "gemini", Path: p})
			if !ok || s.ModTime.Before(since) {
				continue
			}
			h := geminiReadHeader(p)
			if h.id != "" && h.projectHash == hash && h.kind != "subagent" {
				s.ID, s.Cwd = h.id, canon
				out = append(out, s)
			}
		}
	}
	out = geminiOneFilePerID(out)
	newestFirst(out)
	return out, soft
}

// geminiOneFilePerID keeps, of chat files that share a session id, the one
// Find returns (the first by name, the oldest): 0.61.0's TUI leaves a stub
// file (header and session context only) under the id of a session it
// resumes, beside the file it appends to.
func geminiOneFilePerID(ss []Session) []Session {
	at := map[string]int{}
	out := ss[:0]
	for _, s := range ss {
		i, dup := at[s.ID]
		switch {
		case !dup:
			at[s.ID] = len(out)
			out = append(out, s)
		case filepath.Base(s.Path) < filepath.Base(out[i].Path):
			out[i] = s
		}
	}
	return out
}

// geminiChatName keeps the CLI's chat file names (session-*.jsonl).
func geminiChatName(name string) bool { return strings.HasPrefix(name, "session-") }

// geminiProjectDirs returns the directories under <root>/tmp that may hold
// chats of the project canon: its slug from projects.json, the legacy
// hash-named directory, and any directory whose .project_root names canon
// (the CLI's own fallback when projects.json lost the entry). Duplicates
// are removed; missing directories are harmless.
func geminiProjectDirs(root, canon string) []string {
	tmp := filepath.Join(root, "tmp")
	var dirs []string
	add := func(name string) {
		if name == "" || name != filepath.Base(name) || name == "." || name == ".." {
			return // a slug is one path element; anything else is not ours to follow
		}
		d := filepath.Join(tmp, name)
		for _, x := range dirs {
			if x == d {
				return
			}
		}
		dirs = append(dirs, d)
	}
	for p, slug := range geminiSlugs(root) {
		if geminiSamePath(p, canon) {
			add(slug)
		}
	}
	add(GeminiProjectHash(canon))
	ents, _ := os.ReadDir(tmp)
	for i, e := range ents {
		if i >= maxFindEntries {
			break
		}
		if e.IsDir() && geminiSamePath(geminiProjectRoot(filepath.Join(tmp, e.Name())), canon) {
			add(e.Name())
		}
	}
	return dirs
}

// geminiSamePath compares a project root the CLI recorded with a canonical
// checkout path. On Windows the CLI lower-cases the roots it records in
// projects.json and .project_root, so the comparison ignores case there.
func geminiSamePath(recorded, canon string) bool {
	if recorded == "" {
		return false
	}
	if runtime.GOOS == "windows" {
		return strings.EqualFold(filepath.Clean(recorded), canon)
	}
	return recorded == canon
}

// geminiSlugs reads projects.json: project root -> slug. A missing or
// malformed file reads as empty (the marker files still find the project).
func geminiSlugs(root string) map[string]string {
	b, err := os.ReadFile(filepath.Join(root, "projects.json"))
	if err != nil || len(b) > 16<<20 {
		return nil
	}
	var reg struct {
		Projects map[string]string `json:"projects"`
	}
	if json.Unmarshal(b, &reg) != nil {
		return nil
	}
	return reg.Projects
}

// geminiProjectRoot returns the trimmed content of dir/.project_root.
func geminiProjectRoot(dir string) string {
	f, err := os.Open(filepath.Join(dir, ".project_root"))
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 4096)
	n, _ := f.Read(buf)
	return strings.TrimSpace(string(buf[:n]))
}

// geminiHeader is the first metadata record of a chat file.
type geminiHeader struct{ id, projectHash, kind string }

// geminiReadHeader returns the first record carrying sessionId and
// projectHash (the CLI writes it as line one; a resume appends another
// with the same values).
func geminiReadHeader(path string) geminiHeader {
	var h geminiHeader
	_ = scanHeader(path, headerLineMax, func(rec []byte) bool {
		var f [3][]byte
		jsonx.Pick(rec, geminiHeaderKeys, f[:])
		if id, ph := str(f[0]), str(f[1]); id != "" && ph != "" {
			h = geminiHeader{id: id, projectHash: ph, kind: str(f[2])}
			return false
		}
		return true
	})
	return h
}

var geminiHeaderKeys = []string{"sessionId", "projectHash", "kind"}

// Find looks for session-*-<first 8 of id>.jsonl in every project's chats
// directory and confirms the full id in the file's header (8 hex digits can
// collide).
func (g geminiSource) Find(env Env, id string) (Session, Existence, error) {
	if !validID(id) || len(id) < 8 {
		return Session{}, Absent, nil
	}
	tmp := filepath.Join(g.StoreRoot(env), "tmp")
	ents, err := os.ReadDir(tmp)
	if err != nil {
		ex, err := findResult(err)
		return Session{}, ex, wrapFind("gemini", err)
	}
	suffix := "-" + id[:8] + ".jsonl"
	var unknown error
	for i, e := range ents {
		if i >= maxFindEntries {
			return Session{}, Unknown, fmt.Errorf("find gemini session: more than %d project directories", maxFindEntries)
		}
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(tmp, e.Name())
		files, err := jsonlFiles(filepath.Join(dir, "chats"), maxFindEntries, func(name string) bool {
			return geminiChatName(name) && strings.HasSuffix(name, suffix)
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			unknown = err
		}
		for _, p := range files {
			if geminiReadHeader(p).id != id {
				continue
			}
			s, ok := statSession(Session{Harness: "gemini", ID: id, Path: p})
			if !ok {
				return Session{}, Unknown, fmt.Errorf("find gemini session: %s is not readable", p)
			}
			s.Cwd = geminiProjectRoot(dir)
			return s, Present, nil
		}
	}
	if unknown != nil {
		return Session{}, Unknown, wrapFind("gemini", unknown)
	}
	return Session{}, Absent, nil
}

func (geminiSource) Read(ctx context.Context, s Session, from Cursor, opt ReadOptions, emit func(Batch) error) error {
	return readJSONL(ctx, s.Path, from, opt, &geminiParser{}, emit)
}
