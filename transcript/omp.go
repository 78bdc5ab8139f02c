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

// ompSource reads oh-my-pi (`omp`, a Pi fork; 18.2.x):
// <agent dir>/sessions/<dir>/<ISO time>_<id>.jsonl with the agent dir
// $PI_CODING_AGENT_DIR, else ~/$PI_CONFIG_DIR/agent (default ~/.omp/agent),
// or flat files in $PI_CODING_AGENT_SESSION_DIR. The entries are Pi's
// (same tree, roles and blocks, so Pi's parser reads them), but line 1 is
// a fixed-length title record OMP rewrites in place and the session
// header is line 2. A session belongs to a checkout by its header's cwd.
type ompSource struct{ fileStore }

// OMP's store-override variables (the same names as Pi's, plus the config
// directory name).
const (
	ompAgentDirEnv   = "PI_CODING_AGENT_DIR"
	ompSessionDirEnv = "PI_CODING_AGENT_SESSION_DIR"
	ompConfigDirEnv  = "PI_CONFIG_DIR"
)

// OmpSource returns the oh-my-pi store reader.
func OmpSource() Source { return ompSource{} }

func (ompSource) Harness() string { return "omp" }

func (ompSource) StoreEnv() []string {
	return []string{ompAgentDirEnv, ompSessionDirEnv, ompConfigDirEnv}
}

// StoreRoot is the agent directory (~/.omp/agent).
func (ompSource) StoreRoot(env Env) string {
	if v := env.lookup(ompAgentDirEnv); v != "" {
		return v
	}
	cfg := env.lookup(ompConfigDirEnv)
	if cfg == "" {
		cfg = ".omp"
	}
	return filepath.Join(env.Home, cfg, "agent")
}

func (o ompSource) sessionsDir(env Env) (string, bool) {
	if v := env.lookup(ompSessionDirEnv); v != "" {
		return v, true
	}
	return filepath.Join(o.StoreRoot(env), "sessions"), false
}

// OmpProjectDir is OMP's session folder name for a canonical cwd
// (session-paths.ts getDefaultSessionDirName): "-<path relative to HOME>"
// under the home, "-tmp-<relative path>" under the temp dir, else
// "--<absolute path>--", with '/', '\' and ':' as '-'.
func OmpProjectDir(cwd, home, tmp string) string {
	enc := strings.NewReplacer("/", "-", `\`, "-", ":", "-")
	rel := func(prefix, root string) (string, bool) {
		r, err := filepath.Rel(root, cwd)
		if root == "" || err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
			return "", false
		}
		if r == "." {
			return prefix, true
		}
		if strings.HasSuffix(prefix, "-") {
			return prefix + enc.Replace(r), true
		}
		return prefix + "-" + enc.Replace(r), true
	}
	if d, ok := rel("-", home); ok {
		return d
	}
	if d, ok := rel("-tmp", tmp); ok {
		return d
	}
	return "--" + enc.Replace(strings.TrimLeft(cwd, `/\`)) + "--"
}

// projectDir is the checkout's folder for a cwd as OMP computes it
// (home and temp dir resolved like the cwd).
func (o ompSource) projectDir(env Env, cwd string) string {
	dir, _ := o.sessionsDir(env)
	home, _ := canonical(env.Home)
	tmp := env.lookup("TMPDIR")
	if tmp == "" {
		tmp = os.TempDir()
	}
	tmp, _ = canonical(strings.TrimRight(tmp, "/"))
	return filepath.Join(dir, OmpProjectDir(cwd, home, tmp))
}

// WatchRoots is the checkout's session folder (or the flat directory).
func (o ompSource) WatchRoots(env Env, checkout string) []string {
	if dir, flat := o.sessionsDir(env); flat {
		return []string{dir}
	}
	var out []string
	if canon, ok := canonical(checkout); ok {
		out = append(out, o.projectDir(env, canon))
	}
	if abs, err := filepath.Abs(checkout); err == nil {
		if d := o.projectDir(env, abs); len(out) == 0 || d != out[0] {
			out = append(out, d)
		}
	}
	return out
}

func (o ompSource) List(env Env, checkout string, limit int) ([]Session, error) {
	ss, err := o.sessions(env, checkout, time.Time{})
	return limitSessions(ss, limit), err
}

func (o ompSource) CreatedSince(env Env, checkout string, since time.Time) ([]Session, error) {
	return o.sessions(env, checkout, since.Add(-createdSlack))
}

// sessions returns the checkout's sessions modified at or after since.
func (o ompSource) sessions(env Env, checkout string, since time.Time) ([]Session, error) {
	return headerSessions("omp", o.WatchRoots(env, checkout), checkout, since, ompHeader)
}

// ompHeader returns the id and cwd of the session header: the first
// {"type":"session"} record (line 2, after the title slot).
func ompHeader(path string) (id, cwd string) {
	n := 0
	_ = scanHeader(path, headerLineMax, func(rec []byte) bool {
		n++
		if str(jsonx.Get(rec, "type")) == "session" {
			id, cwd = str(jsonx.Get(rec, "id")), str(jsonx.Get(rec, "cwd"))
			return false
		}
		return n < 3
	})
	return id, cwd
}

// Find looks for a file named <time>_<id>.jsonl in every session folder (or
// the flat directory); OMP names files after the header id.
func (o ompSource) Find(env Env, id string) (Session, Existence, error) {
	if !validID(id) {
		return Session{}, Absent, nil
	}
	dir, _ := o.sessionsDir(env)
	ents, err := os.ReadDir(dir)
	if err != nil {
		ex, err := findResult(err)
		return Session{}, ex, wrapFind("omp", err)
	}
	suffix := "_" + id + ".jsonl"
	match := func(name string) bool { return strings.HasSuffix(name, suffix) }
	for i, e := range ents {
		if i >= maxFindEntries {
			return Session{}, Unknown, fmt.Errorf("find omp session: more than %d entries in %s", maxFindEntries, dir)
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
		s, ok := statSession(Session{Harness: "omp", ID: id, Path: hits[0]})
		if !ok {
			return Session{}, Unknown, fmt.Errorf("find omp session: %s is not readable", hits[0])
		}
		_, s.Cwd = ompHeader(s.Path)
		return s, Present, nil
	}
	return Session{}, Absent, nil
}

// Read imports the branch in use, like Pi (see piAbandoned).
func (ompSource) Read(ctx context.Context, s Session, from Cursor, opt ReadOptions, emit func(Batch) error) error {
	off, err := piAbandoned(s.Path)
	if err != nil {
		return err
	}
	return readJSONL(ctx, s.Path, from, opt, newOmpParser(off), emit)
}
