package transcript

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"
)

// opencodeSource reads OpenCode (npm opencode-ai 1.18) sessions from its
// one SQLite store, $XDG_DATA_HOME/opencode/opencode.db: table session
// (directory = the cwd it ran in), message and part (JSON data). Its cursor
// is an [OpenCodeCursor] (the last part's time_updated and id), its progress
// unit is parts, and a session's Size is its part count.
//
// The store is opened read-only (see withOpenCodeDB); the v2 tables
// (session_message, ...) that share the file are not read.
type opencodeSource struct{}

// OpenCodeSource returns the OpenCode store reader.
func OpenCodeSource() Source { return opencodeSource{} }

// opencodeDataEnv moves the store (xdg-basedir's data home).
const opencodeDataEnv = "XDG_DATA_HOME"

func (opencodeSource) Harness() string { return "opencode" }

func (opencodeSource) StoreEnv() []string { return []string{opencodeDataEnv} }

// opencodeSessionCols are the columns every session query selects: its
// part count and the newest write to the session or any of its parts, so
// that two observations can tell whether it is still changing.
const opencodeSessionCols = `s.id, s.directory,
	MAX(s.time_updated, COALESCE((SELECT MAX(p.time_updated) FROM part p WHERE p.session_id = s.id), 0)),
	(SELECT COUNT(*) FROM part p WHERE p.session_id = s.id)`

// scanOpenCodeSession fills a Session from opencodeSessionCols.
func scanOpenCodeSession(sc interface{ Scan(...any) error }, path string) (Session, error) {
	s := Session{Harness: "opencode", Path: path}
	var updated int64
	if err := sc.Scan(&s.ID, &s.Cwd, &updated, &s.Size); err != nil {
		return Session{}, err
	}
	s.ModTime = time.UnixMilli(updated)
	return s, nil
}

// StoreRoot follows OpenCode's xdg-basedir rule, which uses
// ~/.local/share on every OS (macOS and Windows included).
func (opencodeSource) StoreRoot(env Env) string {
	if v := env.lookup(opencodeDataEnv); v != "" {
		return filepath.Join(v, "opencode")
	}
	return filepath.Join(env.Home, ".local", "share", "opencode")
}

// dbPath is the store file itself.
func (o opencodeSource) dbPath(env Env) string {
	return filepath.Join(o.StoreRoot(env), "opencode.db")
}

// WatchRoots returns the store directory: every write lands in
// opencode.db-wal beside the database.
func (o opencodeSource) WatchRoots(env Env, checkout string) []string {
	return []string{o.StoreRoot(env)}
}

func (o opencodeSource) List(env Env, checkout string, limit int) ([]Session, error) {
	ss, err := o.sessions(env, checkout, time.Time{})
	return limitSessions(ss, limit), err
}

func (o opencodeSource) CreatedSince(env Env, checkout string, since time.Time) ([]Session, error) {
	return o.sessions(env, checkout, since.Add(-createdSlack))
}

// sessions returns the top-level, unarchived sessions (subagent sessions
// have a parent and belong to the session that spawned them) of checkout updated since since,
// newest first. The directory is compared in Go after canonicalisation, so
// the query scans at most maxScanFiles recent sessions.
func (o opencodeSource) sessions(env Env, checkout string, since time.Time) ([]Session, error) {
	canon, ok := canonical(checkout)
	if !ok {
		return nil, nil // fail closed
	}
	path := o.dbPath(env)
	var out []Session
	err := withOpenCodeDB(context.Background(), path, func(db *sql.DB) error {
		out = out[:0]
		rows, err := db.Query(`SELECT `+opencodeSessionCols+` FROM session s
			WHERE s.parent_id IS NULL AND s.time_archived IS NULL AND s.time_updated >= ?
			ORDER BY s.time_updated DESC, s.id DESC LIMIT ?`, since.UnixMilli(), maxScanFiles)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			s, err := scanOpenCodeSession(rows, path)
			if err != nil {
				return err
			}
			if opencodeSameDir(s.Cwd, canon) {
				out = append(out, s)
			}
		}
		return rows.Err()
	})
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("list opencode sessions: %w", err)
	}
	return out, nil
}

// opencodeSameDir compares a stored directory with the canonical checkout.
// OpenCode stores forward slashes on Windows, so that spelling matches too.
func opencodeSameDir(recorded, checkoutCanon string) bool {
	return sameDir(recorded, checkoutCanon) ||
		(filepath.Separator != '/' && sameDir(filepath.FromSlash(recorded), checkoutCanon))
}

// Find looks the session up by id. A missing store is Absent (nothing has
// been recorded yet); an unreadable one is Unknown.
func (o opencodeSource) Find(env Env, id string) (Session, Existence, error) {
	s, err := o.lookup(o.dbPath(env), id)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Session{}, Absent, nil
	case errors.Is(err, sql.ErrNoRows):
		return Session{}, Absent, nil
	case err != nil:
		return Session{}, Unknown, fmt.Errorf("find opencode session %s: %w", id, err)
	}
	return s, Present, nil
}

// lookup reads one session row of the store at path.
func (opencodeSource) lookup(path, id string) (Session, error) {
	var s Session
	err := withOpenCodeDB(context.Background(), path, func(db *sql.DB) error {
		var err error
		s, err = scanOpenCodeSession(db.QueryRow(`SELECT `+opencodeSessionCols+` FROM session s WHERE s.id = ?`, id), path)
		return err
	})
	return s, err
}

// Read imports the parts of s after the cursor from (see ReadFrom).
func (o opencodeSource) Read(ctx context.Context, s Session, from Cursor, opt ReadOptions, emit func(Batch) error) error {
	return o.ReadFrom(ctx, s, openCodeCursorFrom(from), opt, func(b OpenCodeBatch) error {
		return emit(Batch{Events: b.Events, Losses: b.Losses, Cursor: b.Cursor.encode()})
	})
}

// Progress counts parts: those the cursor passed, out of the session's
// part count when it was observed.
func (opencodeSource) Progress(s Session, c Cursor) (done, total int64) {
	return min(openCodeCursorFrom(c).N, s.Size), s.Size
}

// Refresh re-reads the session's row (one indexed query, no scan).
func (o opencodeSource) Refresh(s Session) (Session, bool) {
	if s.Path == "" || s.ID == "" {
		return s, false
	}
	now, err := o.lookup(s.Path, s.ID)
	if err != nil {
		return s, false
	}
	return now, true
}

// Settled: no part was added or rewritten between the two observations.
func (opencodeSource) Settled(before, after Session) bool {
	return before.ID == after.ID && before.Size == after.Size && before.ModTime.Equal(after.ModTime)
}

// WrittenAfterExit is false: OpenCode's server runs inside the CLI
// process, so nothing writes the store for a session once it exited.
func (opencodeSource) WrittenAfterExit() bool { return false }
