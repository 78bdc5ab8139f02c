package transcript

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// antigravitySource reads Antigravity CLI (`agy`) conversations, as far as
// they can be decoded. Its store is ~/.gemini/antigravity-cli:
//
//   - conversations/<uuid>.db, one SQLite database per conversation whose
//     steps are undocumented protobuf. Only the workspace is decoded: table
//     trajectory_metadata_blob, row id 'main', field 1 → field 1 of its data
//     is the workspace's file:// URI. It places the conversation.
//   - history.jsonl, shared by every conversation: one line per prompt the
//     user typed ({"conversationId","workspace","display","timestamp" ms,
//     "type" absent | "slash_command" | "shell"}).
//
// A session is a conversation; its Path is the database, its Size the size
// of history.jsonl (the file Read imports from; progress is in its bytes).
// Imported: the prompts history.jsonl attributes to the conversation and
// its workspace. Not imported, and said once per session as losses: the
// assistant and tool steps (never decoded: no guessing at an unversioned
// protobuf). agy logs a new conversation's opening prompt before the
// conversation has an id; it is attributed by time (antigravity_open.go)
// and marked inferred. Facts: the anchor's reader (akitaonrails/ai-memory,
// verified on agy 1.1.7) and, for the creation time, a public usage
// reader of the same databases (see docs/harnesses.md).
type antigravitySource struct{}

// AntigravitySource returns the Antigravity conversation reader.
func AntigravitySource() Source { return antigravitySource{} }

const (
	antigravityWhat    = "antigravity conversation store"
	antigravityHistory = "history.jsonl"
	antigravityMetaMax = 1 << 20
)

func (antigravitySource) Harness() string { return "antigravity" }

func (antigravitySource) StoreEnv() []string { return nil }

func (antigravitySource) StoreRoot(env Env) string {
	return filepath.Join(env.Home, ".gemini", "antigravity-cli")
}

func (a antigravitySource) convDir(env Env) string {
	return filepath.Join(a.StoreRoot(env), "conversations")
}

// WatchRoots is the store (databases and history.jsonl both change).
func (a antigravitySource) WatchRoots(env Env, checkout string) []string {
	return []string{a.StoreRoot(env)}
}

func (a antigravitySource) List(env Env, checkout string, limit int) ([]Session, error) {
	ss, err := a.sessions(env, checkout, time.Time{})
	return limitSessions(ss, limit), err
}

func (a antigravitySource) CreatedSince(env Env, checkout string, since time.Time) ([]Session, error) {
	return a.sessions(env, checkout, since.Add(-createdSlack))
}

// sessions lists the conversations whose workspace is checkout.
func (a antigravitySource) sessions(env Env, checkout string, since time.Time) ([]Session, error) {
	canon, ok := canonical(checkout)
	if !ok {
		return nil, nil // fail closed
	}
	ents, err := os.ReadDir(a.convDir(env))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list antigravity conversations: %w", err)
	}
	var out []Session
	for i, e := range ents {
		id, isDB := strings.CutSuffix(e.Name(), ".db")
		if i >= maxScanFiles || !isDB || !validID(id) {
			continue
		}
		s, ok := a.session(env, id)
		if ok && !s.ModTime.Before(since) && sameDir(s.Cwd, canon) {
			out = append(out, s)
		}
	}
	newestFirst(out)
	return out, nil
}

// session describes conversation id; false when its database is gone.
func (a antigravitySource) session(env Env, id string) (Session, bool) {
	db := filepath.Join(a.convDir(env), id+".db")
	s := Session{Harness: "antigravity", ID: id, Path: db}
	s, ok := antigravityStat(s)
	if ok {
		s.Cwd, _, _ = antigravityMeta(db)
	}
	return s, ok
}

// antigravityStat fills ModTime (the newer of the database and its WAL:
// agy writes every step there; history.jsonl is shared by every
// conversation, so its time would make them all equally new) and Size
// (history.jsonl's size, which grows with every prompt).
func antigravityStat(s Session) (Session, bool) {
	fi, err := os.Stat(s.Path)
	if err != nil || !fi.Mode().IsRegular() {
		return s, false
	}
	s.ModTime, s.Size = fi.ModTime(), 0
	if w, err := os.Stat(s.Path + "-wal"); err == nil && w.ModTime().After(s.ModTime) {
		s.ModTime = w.ModTime()
	}
	if h, err := os.Stat(antigravityHistoryOf(s.Path)); err == nil {
		s.Size = h.Size()
	}
	return s, true
}

// antigravityHistoryOf is history.jsonl beside the conversations dir.
func antigravityHistoryOf(db string) string {
	return filepath.Join(filepath.Dir(filepath.Dir(db)), antigravityHistory)
}

// antigravityMeta decodes a conversation database's trajectory metadata
// (table trajectory_metadata_blob, row 'main'): the workspace path (field
// 1 → field 1, a file:// URI) and, when present, the creation time (field
// 2, a protobuf Timestamp; zero when absent). An error when it names no
// file:// workspace.
func antigravityMeta(db string) (string, time.Time, error) {
	var blob []byte
	err := withROSQLite(context.Background(), db, antigravityWhat, func(c *sql.DB) error {
		return c.QueryRow(`SELECT data FROM trajectory_metadata_blob WHERE id = 'main' AND length(data) <= ?`,
			antigravityMetaMax).Scan(&blob)
	})
	if err != nil {
		return "", time.Time{}, err
	}
	var created time.Time
	if ts, ok := protobufField(blob, 2); ok {
		created, _ = protobufTimestamp(ts)
	}
	inner, ok := protobufField(blob, 1)
	if ok {
		inner, ok = protobufField(inner, 1)
	}
	u, err := url.Parse(string(inner))
	if !ok || err != nil || u.Scheme != "file" || u.Path == "" {
		return "", created, errors.New("antigravity conversation metadata names no file:// workspace")
	}
	return filepath.FromSlash(u.Path), created, nil
}

// Find looks for conversations/<id>.db.
func (a antigravitySource) Find(env Env, id string) (Session, Existence, error) {
	if !validID(id) {
		return Session{}, Absent, nil
	}
	if s, ok := a.session(env, id); ok {
		return s, Present, nil
	}
	_, err := os.Stat(filepath.Join(a.convDir(env), id+".db"))
	ex, err := findResult(err)
	if ex == Unknown && err == nil {
		err = errors.New("not a regular file")
	}
	return Session{}, ex, wrapFind("antigravity", err)
}

// Read imports the conversation's prompts from history.jsonl; the first
// read of a session also notes what is never imported.
func (antigravitySource) Read(ctx context.Context, s Session, from Cursor, opt ReadOptions, emit func(Batch) error) error {
	hist := antigravityHistoryOf(s.Path)
	fc := fileCursorFor(from, hist)
	opening := antigravityOpeningOf(s)
	if fc.Offset == 0 {
		losses := []Loss{{Reason: "antigravity assistant and tool steps are undecoded protobuf; only the user's prompts are imported"}}
		if opening.created.IsZero() {
			losses = append(losses, Loss{Reason: "antigravity logs a conversation's opening prompt without its id and this conversation records no creation time; it is not attributed"})
		}
		if err := emit(Batch{Cursor: fc.encode(), Losses: losses}); err != nil {
			return err
		}
	}
	if _, err := os.Stat(hist); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return readJSONL(ctx, hist, fc.encode(), opt, antigravityParser{id: s.ID, workspace: s.Cwd, opening: opening}, emit)
}

// Progress is the history.jsonl offset reached, out of its size.
func (antigravitySource) Progress(s Session, c Cursor) (done, total int64) {
	return min(fileCursorFor(c, antigravityHistoryOf(s.Path)).Offset, s.Size), s.Size
}

func (antigravitySource) Refresh(s Session) (Session, bool) {
	if s.Path == "" {
		return s, false
	}
	return antigravityStat(s)
}

func (antigravitySource) Settled(before, after Session) bool {
	return before.Path == after.Path && before.Size == after.Size && before.ModTime.Equal(after.ModTime)
}

// WrittenAfterExit is false: agy writes its stores from its own process.
func (antigravitySource) WrittenAfterExit() bool { return false }
