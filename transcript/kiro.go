package transcript

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// kiroSource reads Kiro CLI sessions, from two engines that share
// $KIRO_HOME (~/.kiro)/sessions:
//
//   - v2: cli/<uuid>.jsonl, one envelope per line
//     ({"version":"v1","kind":"Prompt|AssistantMessage|ToolResults|…",
//     "data":{"message_id","content":[{"kind","data"}],"meta":{"timestamp"}}}),
//     beside <uuid>.json ({"session_id","cwd",…}) that places it;
//   - v3: <bucket>/sess_<uuid>/messages.jsonl beside session.json
//     ({"schemaVersion":"1.0.0","dataModelVersion":1,"id","workspacePaths"}).
//
// Which engine a session belongs to is told by the store's shape (and the
// "sess_" prefix of v3 ids). v3 sessions are found and resumed, but their
// records are not imported: no public source documents their fields, and
// a guessed reading could misattribute text. A v2 session's file is its
// .jsonl; a v3 session's, its messages.jsonl.
type kiroSource struct{ fileStore }

const (
	kiroHomeEnv = "KIRO_HOME"
	kiroV3Pref  = "sess_"
)

// KiroSource returns the Kiro CLI store reader.
func KiroSource() Source { return kiroSource{} }

func (kiroSource) Harness() string { return "kiro" }

func (kiroSource) StoreEnv() []string { return []string{kiroHomeEnv} }

// StoreRoot is Kiro's home directory.
func (kiroSource) StoreRoot(env Env) string {
	if v := env.lookup(kiroHomeEnv); v != "" {
		return v
	}
	return filepath.Join(env.Home, ".kiro")
}

func (k kiroSource) sessionsDir(env Env) string { return filepath.Join(k.StoreRoot(env), "sessions") }

// WatchRoots is the sessions directory (v2 and v3 both live under it).
func (k kiroSource) WatchRoots(env Env, checkout string) []string {
	return []string{k.sessionsDir(env)}
}

func (k kiroSource) List(env Env, checkout string, limit int) ([]Session, error) {
	ss, err := k.sessions(env, checkout, time.Time{})
	return limitSessions(ss, limit), err
}

func (k kiroSource) CreatedSince(env Env, checkout string, since time.Time) ([]Session, error) {
	return k.sessions(env, checkout, since.Add(-createdSlack))
}

// sessions lists both engines' sessions of checkout modified since since.
func (k kiroSource) sessions(env Env, checkout string, since time.Time) ([]Session, error) {
	canon, ok := canonical(checkout)
	if !ok {
		return nil, nil // fail closed
	}
	root := k.sessionsDir(env)
	ents, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list kiro sessions: %w", err)
	}
	var out []Session
	for i, e := range ents {
		if i >= maxScanFiles || !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, e.Name())
		var more []Session
		if e.Name() == "cli" {
			more = kiroV2Sessions(dir, canon)
		} else {
			more = kiroV3Sessions(dir, canon)
		}
		for _, s := range more {
			if !s.ModTime.Before(since) {
				out = append(out, s)
			}
		}
	}
	newestFirst(out)
	return out, nil
}

// kiroV2Sessions lists cli/<uuid>.jsonl whose <uuid>.json names cwd.
func kiroV2Sessions(dir, canon string) []Session {
	files, _ := jsonlFiles(dir, maxScanFiles, func(string) bool { return true })
	var out []Session
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		meta := kiroV2Meta(f)
		if !validID(id) || meta.SessionID != id || !sameDir(meta.Cwd, canon) {
			continue
		}
		if s, ok := statSession(Session{Harness: "kiro", ID: id, Path: f, Cwd: meta.Cwd}); ok {
			out = append(out, s)
		}
	}
	return out
}

type kiroV2Metadata struct {
	SessionID string `json:"session_id"`
	Cwd       string `json:"cwd"`
}

// kiroV2Meta reads the <uuid>.json beside a v2 transcript.
func kiroV2Meta(jsonl string) kiroV2Metadata {
	var m kiroV2Metadata
	if b, err := readSmall(strings.TrimSuffix(jsonl, ".jsonl") + ".json"); err == nil {
		_ = json.Unmarshal(b, &m)
	}
	return m
}

type kiroV3Metadata struct {
	Schema     string   `json:"schemaVersion"`
	Model      int      `json:"dataModelVersion"`
	ID         string   `json:"id"`
	Workspaces []string `json:"workspacePaths"`
}

// kiroV3Sessions lists <bucket>/sess_<uuid>/ whose session.json is of the
// known schema, names the folder and lists cwd among its workspaces.
func kiroV3Sessions(bucket, canon string) []Session {
	ents, _ := os.ReadDir(bucket)
	var out []Session
	for i, e := range ents {
		if i >= maxScanFiles || !e.IsDir() || !strings.HasPrefix(e.Name(), kiroV3Pref) {
			continue
		}
		if s, ok := kiroV3Session(filepath.Join(bucket, e.Name())); ok && kiroV3In(s, canon) {
			out = append(out, s.Session)
		}
	}
	return out
}

type kiroV3Found struct {
	Session
	workspaces []string
}

func kiroV3In(s kiroV3Found, canon string) bool {
	for _, w := range s.workspaces {
		if sameDir(w, canon) {
			return true
		}
	}
	return false
}

// kiroV3Session reads one v3 session folder.
func kiroV3Session(dir string) (kiroV3Found, bool) {
	var m kiroV3Metadata
	b, err := readSmall(filepath.Join(dir, "session.json"))
	if err != nil || json.Unmarshal(b, &m) != nil || m.Schema != "1.0.0" || m.Model != 1 || m.ID != filepath.Base(dir) {
		return kiroV3Found{}, false
	}
	s := Session{Harness: "kiro", ID: m.ID, Path: filepath.Join(dir, "messages.jsonl")}
	if len(m.Workspaces) > 0 {
		s.Cwd = m.Workspaces[0]
	}
	if st, ok := statSession(s); ok {
		s = st
	}
	return kiroV3Found{Session: s, workspaces: m.Workspaces}, true
}

// readSmall reads a metadata file of at most 1 MiB.
func readSmall(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Size() > 1<<20 {
		return nil, fmt.Errorf("%s: metadata over 1 MiB", path)
	}
	return os.ReadFile(path)
}

// Find looks the id up in the engine its shape names: sess_<uuid> in any
// v3 bucket, <uuid> in cli/.
func (k kiroSource) Find(env Env, id string) (Session, Existence, error) {
	if !validID(id) {
		return Session{}, Absent, nil
	}
	root := k.sessionsDir(env)
	if !strings.HasPrefix(id, kiroV3Pref) {
		path := filepath.Join(root, "cli", id+".jsonl")
		s, ok := statSession(Session{Harness: "kiro", ID: id, Path: path})
		if ok {
			s.Cwd = kiroV2Meta(path).Cwd
			return s, Present, nil
		}
		_, err := os.Stat(path)
		ex, err := findResult(err)
		return Session{}, ex, wrapFind("kiro", err)
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		ex, err := findResult(err)
		return Session{}, ex, wrapFind("kiro", err)
	}
	for i, e := range ents {
		if i >= maxFindEntries {
			return Session{}, Unknown, fmt.Errorf("find kiro session: more than %d entries in %s", maxFindEntries, root)
		}
		if s, ok := kiroV3Session(filepath.Join(root, e.Name(), id)); ok {
			return s.Session, Present, nil
		}
	}
	return Session{}, Absent, nil
}

// Read imports a v2 session; a v3 session yields one loss per read that
// finds new bytes (see kiroSource).
func (kiroSource) Read(ctx context.Context, s Session, from Cursor, opt ReadOptions, emit func(Batch) error) error {
	if strings.HasPrefix(s.ID, kiroV3Pref) {
		return readJSONL(ctx, s.Path, from, opt, kiroV3Parser{}, emit)
	}
	return readJSONL(ctx, s.Path, from, opt, kiroV2Parser{}, emit)
}
