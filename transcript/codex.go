package transcript

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// codexSource reads Codex CLI rollouts:
// <root>/sessions/YYYY/MM/DD/rollout-<local time>-<id>.jsonl, whose first
// record (session_meta) names the session id and cwd.
type codexSource struct{ fileStore }

// codexHomeEnv names the store-override variable.
const codexHomeEnv = "CODEX_HOME"

// CodexSource returns the Codex CLI store reader.
func CodexSource() Source { return codexSource{} }

func (codexSource) Harness() string { return "codex" }

func (codexSource) StoreEnv() []string { return []string{codexHomeEnv} }

func (codexSource) StoreRoot(env Env) string {
	if v := env.lookup(codexHomeEnv); v != "" {
		return v
	}
	return filepath.Join(env.Home, ".codex")
}

// WatchRoots returns the sessions tree: rollouts of every cwd share it, and
// a new day directory appears at midnight.
func (c codexSource) WatchRoots(env Env, checkout string) []string {
	return []string{filepath.Join(c.StoreRoot(env), "sessions")}
}

func (c codexSource) List(env Env, checkout string, limit int) ([]Session, error) {
	ss, err := c.sessions(env, checkout, time.Time{})
	return limitSessions(ss, limit), err
}

func (c codexSource) CreatedSince(env Env, checkout string, since time.Time) ([]Session, error) {
	return c.sessions(env, checkout, since.Add(-createdSlack))
}

func (c codexSource) sessions(env Env, checkout string, since time.Time) ([]Session, error) {
	canon, ok := canonical(checkout)
	if !ok {
		return nil, nil // fail closed
	}
	files, err := codexRollouts(filepath.Join(c.StoreRoot(env), "sessions"), since, maxScanFiles, "")
	var out []Session
	var skipped unreadable
	for _, p := range files {
		s, ok := statSession(Session{Harness: "codex", Path: p})
		if !ok || s.ModTime.Before(since) {
			continue
		}
		var herr error
		if s.ID, s.Cwd, herr = codexHeaderErr(p); herr != nil {
			skipped.add("codex", herr)
		} else if s.ID != "" && sameDir(s.Cwd, canon) {
			out = append(out, s)
		}
	}
	newestFirst(out)
	if err == nil {
		err = skipped.err()
	}
	return out, err
}

// codexRollouts walks sessions/YYYY/MM/DD newest day first and returns up to
// max rollout files (names ending in suffix, when given). Day directories
// older than the day before since are not visited: directory dates are local
// time, so one day of margin covers any time zone.
func codexRollouts(sessions string, since time.Time, max int, suffix string) ([]string, error) {
	minDay := ""
	if !since.IsZero() {
		minDay = since.AddDate(0, 0, -1).Format("2006/01/02")
	}
	var out []string
	err := walkDesc(sessions, 3, func(rel, dir string) bool {
		if minDay != "" && rel < minDay {
			return false
		}
		files, err := jsonlFiles(dir, max-len(out), func(name string) bool {
			return strings.HasPrefix(name, "rollout-") && strings.HasSuffix(name, suffix)
		})
		if err == nil {
			sort.Sort(sort.Reverse(sort.StringSlice(files)))
			out = append(out, files...)
		}
		return len(out) < max
	})
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	return out, err
}

// walkDesc visits the directories depth levels below root in descending
// name order, calling fn with the slash-joined relative path, until fn
// returns false. An unreadable subdirectory does not hide the others: the
// walk goes on and the first such error is returned at the end.
func walkDesc(root string, depth int, fn func(rel, dir string) bool) error {
	var soft error
	err := walkLevel(root, depth, "", fn, &soft)
	if errors.Is(err, errStopWalk) {
		err = nil
	}
	if err != nil {
		return err
	}
	return soft
}

func walkLevel(dir string, depth int, rel string, fn func(rel, dir string) bool, soft *error) error {
	if depth == 0 {
		if !fn(rel, dir) {
			return errStopWalk
		}
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		if rel == "" {
			return err
		}
		if *soft == nil {
			*soft = err
		}
		return nil
	}
	for i := len(ents) - 1; i >= 0; i-- {
		if !isStoreDir(dir, ents[i]) {
			continue
		}
		r := path.Join(rel, ents[i].Name())
		if err := walkLevel(filepath.Join(dir, ents[i].Name()), depth-1, r, fn, soft); err != nil {
			return err
		}
	}
	return nil
}

var errStopWalk = errors.New("stop walk")

// codexHeader returns the session id and cwd from the session_meta record.
func codexHeader(path string) (id, cwd string) {
	id, cwd, _ = codexHeaderErr(path)
	return id, cwd
}

// codexHeaderErr is codexHeader that also says when the header could not
// be read.
func codexHeaderErr(path string) (id, cwd string, err error) {
	err = scanHeader(path, headerLineMax*8, func(rec []byte) bool {
		if str(jsonx.Get(rec, "type")) != "session_meta" {
			return true
		}
		p := jsonx.Get(rec, "payload")
		id, cwd = str(jsonx.Get(p, "id")), str(jsonx.Get(p, "cwd"))
		return false
	})
	return id, cwd, err
}

// Find looks for a rollout whose file name ends in -<id>.jsonl.
func (c codexSource) Find(env Env, id string) (Session, Existence, error) {
	if !validID(id) {
		return Session{}, Absent, nil
	}
	sessions := filepath.Join(c.StoreRoot(env), "sessions")
	if _, err := os.Stat(sessions); err != nil {
		ex, err := findResult(err)
		return Session{}, ex, wrapFind("codex", err)
	}
	files, err := codexRollouts(sessions, time.Time{}, 1, "-"+id+".jsonl")
	switch {
	case len(files) == 0 && err != nil: // part of the store was unreadable
		return Session{}, Unknown, wrapFind("codex", err)
	case len(files) == 0:
		return Session{}, Absent, nil
	}
	s, ok := statSession(Session{Harness: "codex", ID: id, Path: files[0]})
	if !ok {
		return Session{}, Unknown, fmt.Errorf("find codex session: %s is not readable", files[0])
	}
	_, s.Cwd = codexHeader(s.Path)
	return s, Present, nil
}

func (codexSource) Read(ctx context.Context, s Session, from Cursor, opt ReadOptions, emit func(Batch) error) error {
	return readJSONL(ctx, s.Path, from, opt, codexParser{}, emit)
}

// CodexBaseInstructions returns session_meta.payload.base_instructions.text
// of a rollout: the session's own system prompt, which a resumed session
// needs back when extra context is delivered through model_instructions_file.
func CodexBaseInstructions(path string) (string, error) {
	var text string
	found := false
	err := scanHeader(path, 4<<20, func(rec []byte) bool {
		if str(jsonx.Get(rec, "type")) != "session_meta" {
			return true
		}
		bi := jsonx.Get(jsonx.Get(rec, "payload"), "base_instructions")
		text, found = jsonx.String(jsonx.Get(bi, "text"))
		return false
	})
	if err != nil {
		return "", fmt.Errorf("read codex base instructions: %w", err)
	}
	if !found {
		return "", fmt.Errorf("read codex base instructions: no session_meta with base_instructions in %s", path)
	}
	return text, nil
}
