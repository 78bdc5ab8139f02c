package transcript

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// copilotSource reads GitHub Copilot CLI (`@github/copilot` 1.0.x):
// <root>/session-state/<uuid>/events.jsonl, one event per line
// ({type, data, id, timestamp, parentId}), root = $COPILOT_HOME else
// ~/.copilot. The first event (session.start) names the session id and the
// cwd (data.context.cwd). The directory also holds workspace.yaml,
// checkpoints and lock files, and the root a cross-session SQLite index
// (session-store.db); events.jsonl is the transcript and the only file
// read.
type copilotSource struct{ fileStore }

// copilotHomeEnv names the store-override variable.
const copilotHomeEnv = "COPILOT_HOME"

// copilotEvents is the transcript file inside a session directory.
const copilotEvents = "events.jsonl"

// CopilotSource returns the GitHub Copilot CLI store reader.
func CopilotSource() Source { return copilotSource{} }

func (copilotSource) Harness() string { return "copilot" }

func (copilotSource) StoreEnv() []string { return []string{copilotHomeEnv} }

func (copilotSource) StoreRoot(env Env) string {
	if v := env.lookup(copilotHomeEnv); v != "" {
		return v
	}
	return filepath.Join(env.Home, ".copilot")
}

func (c copilotSource) stateDir(env Env) string {
	return filepath.Join(c.StoreRoot(env), "session-state")
}

// WatchRoots is the session-state directory: sessions of every cwd share it.
func (c copilotSource) WatchRoots(env Env, checkout string) []string {
	return []string{c.stateDir(env)}
}

func (c copilotSource) List(env Env, checkout string, limit int) ([]Session, error) {
	ss, err := c.sessions(env, checkout, time.Time{})
	return limitSessions(ss, limit), err
}

func (c copilotSource) CreatedSince(env Env, checkout string, since time.Time) ([]Session, error) {
	return c.sessions(env, checkout, since.Add(-createdSlack))
}

// sessions returns the checkout's sessions modified at or after since; the
// cwd of each session.start decides.
func (c copilotSource) sessions(env Env, checkout string, since time.Time) ([]Session, error) {
	canon, ok := canonical(checkout)
	if !ok {
		return nil, nil // fail closed
	}
	dir := c.stateDir(env)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list copilot sessions: %w", err)
	}
	var out []Session
	for i, e := range ents {
		if i >= maxScanFiles {
			break
		}
		if !validID(e.Name()) || !isStoreDir(dir, e) {
			continue
		}
		s, ok := statSession(Session{Harness: "copilot", ID: e.Name(), Path: filepath.Join(dir, e.Name(), copilotEvents)})
		if !ok || s.ModTime.Before(since) {
			continue
		}
		if s.Cwd = copilotCwd(s.Path); sameDir(s.Cwd, canon) {
			out = append(out, s)
		}
	}
	newestFirst(out)
	return out, nil
}

// copilotCwd returns the cwd recorded by the session.start event.
func copilotCwd(path string) string {
	var cwd string
	_ = scanHeader(path, headerLineMax, func(rec []byte) bool {
		if str(jsonx.Get(rec, "type")) != "session.start" {
			return true
		}
		cwd = str(jsonx.Get(jsonx.Get(jsonx.Get(rec, "data"), "context"), "cwd"))
		return false
	})
	return cwd
}

// Find looks at session-state/<id>/events.jsonl.
func (c copilotSource) Find(env Env, id string) (Session, Existence, error) {
	if !validID(id) {
		return Session{}, Absent, nil
	}
	s := Session{Harness: "copilot", ID: id, Path: filepath.Join(c.stateDir(env), id, copilotEvents)}
	st, err := statTranscript(s.Path)
	if err != nil {
		ex, err := findResult(err)
		return Session{}, ex, wrapFind("copilot", err)
	}
	s.ModTime, s.Size, s.Cwd = st.ModTime(), st.Size(), copilotCwd(s.Path)
	return s, Present, nil
}

func (copilotSource) Read(ctx context.Context, s Session, from Cursor, opt ReadOptions, emit func(Batch) error) error {
	return readJSONL(ctx, s.Path, from, opt, copilotParser{}, emit)
}
