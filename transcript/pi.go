package transcript

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// piSource reads Pi (pi-coding-agent, 0.73 and 1.x):
// <agent dir>/sessions/--<cwd, '/' '\' ':' -> '-'>--/<ISO time>_<id>.jsonl,
// a tree of entries (id/parentId) under a {"type":"session"} header that
// names the id and the cwd. With PI_CODING_AGENT_SESSION_DIR the files lie
// flat in that directory.
type piSource struct{ fileStore }

// Pi's store-override variables: the whole agent directory, or only where
// sessions go (flat, no per-cwd folder).
const (
	piAgentDirEnv   = "PI_CODING_AGENT_DIR"
	piSessionDirEnv = "PI_CODING_AGENT_SESSION_DIR"
)

// PiSource returns the Pi store reader.
func PiSource() Source { return piSource{} }

func (piSource) Harness() string { return "pi" }

func (piSource) StoreEnv() []string { return []string{piAgentDirEnv, piSessionDirEnv} }

// StoreRoot is the agent directory (~/.pi/agent).
func (piSource) StoreRoot(env Env) string {
	if v := env.lookup(piAgentDirEnv); v != "" {
		return v
	}
	return filepath.Join(env.Home, ".pi", "agent")
}

// sessionsDir is where session files go and whether they lie flat.
func (p piSource) sessionsDir(env Env) (string, bool) {
	if v := env.lookup(piSessionDirEnv); v != "" {
		return v, true
	}
	return filepath.Join(p.StoreRoot(env), "sessions"), false
}

// PiProjectDir is Pi's session folder name for cwd: "--" + cwd without its
// leading separator, with '/', '\' and ':' replaced by '-', + "--".
func PiProjectDir(cwd string) string {
	c := strings.TrimLeft(cwd, `/\`)
	c = strings.NewReplacer("/", "-", `\`, "-", ":", "-").Replace(c)
	return "--" + c + "--"
}

// WatchRoots is the checkout's session folder (or the flat directory).
func (p piSource) WatchRoots(env Env, checkout string) []string {
	dir, flat := p.sessionsDir(env)
	if flat {
		return []string{dir}
	}
	var out []string
	if canon, ok := canonical(checkout); ok {
		out = append(out, filepath.Join(dir, PiProjectDir(canon)))
	}
	if abs, err := filepath.Abs(checkout); err == nil {
		if d := filepath.Join(dir, PiProjectDir(abs)); len(out) == 0 || d != out[0] {
			out = append(out, d)
		}
	}
	return out
}

func (p piSource) List(env Env, checkout string, limit int) ([]Session, error) {
	ss, err := p.sessions(env, checkout, time.Time{})
	return limitSessions(ss, limit), err
}

func (p piSource) CreatedSince(env Env, checkout string, since time.Time) ([]Session, error) {
	return p.sessions(env, checkout, since.Add(-createdSlack))
}

// sessions returns the checkout's sessions modified at or after since.
func (p piSource) sessions(env Env, checkout string, since time.Time) ([]Session, error) {
	return headerSessions("pi", p.WatchRoots(env, checkout), checkout, since, piHeader)
}

// piHeader returns the id and cwd of the session header (the first line).
func piHeader(path string) (id, cwd string) {
	_ = scanHeader(path, headerLineMax, func(rec []byte) bool {
		if str(jsonx.Get(rec, "type")) == "session" {
			id, cwd = str(jsonx.Get(rec, "id")), str(jsonx.Get(rec, "cwd"))
		}
		return false
	})
	return id, cwd
}

// Find looks for a file named <time>_<id>.jsonl in every session folder (or
// the flat directory); Pi names files after the header id.
func (p piSource) Find(env Env, id string) (Session, Existence, error) {
	if !validID(id) {
		return Session{}, Absent, nil
	}
	dir, _ := p.sessionsDir(env)
	ents, err := os.ReadDir(dir)
	if err != nil {
		ex, err := findResult(err)
		return Session{}, ex, wrapFind("pi", err)
	}
	suffix := "_" + id + ".jsonl"
	match := func(name string) bool { return strings.HasSuffix(name, suffix) }
	for i, e := range ents {
		if i >= maxFindEntries {
			return Session{}, Unknown, fmt.Errorf("find pi session: more than %d entries in %s", maxFindEntries, dir)
		}
		var hits []string
		switch {
		case e.IsDir():
			hits, _ = jsonlFiles(filepath.Join(dir, e.Name()), maxFindEntries, match)
		case match(e.Name()):
			hits = []string{filepath.Join(dir, e.Name())}
		}
		if len(hits) == 0 {
			continue
		}
		s, ok := statSession(Session{Harness: "pi", ID: id, Path: hits[0]})
		if !ok {
			return Session{}, Unknown, fmt.Errorf("find pi session: %s is not readable", hits[0])
		}
		_, s.Cwd = piHeader(s.Path)
		return s, Present, nil
	}
	return Session{}, Absent, nil
}

// Read imports the branch of the tree that is in use: the entries on the
// path from the last entry back to the root, in file order (see piParser).
func (piSource) Read(ctx context.Context, s Session, from Cursor, opt ReadOptions, emit func(Batch) error) error {
	off, err := piAbandoned(s.Path)
	if err != nil {
		return err
	}
	return readJSONL(ctx, s.Path, from, opt, &piParser{abandoned: off}, emit)
}
