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
// (directory = the cwd it ran in), message and part (JSON data). It is not
// in the registry yet: its cursor is an [OpenCodeCursor], not a byte offset,
// and waits for the opaque-cursor interface.
//
// The store is opened read-only (see withOpenCodeDB); the v2 tables
// (session_message, ...) that share the file are not read.
type opencodeSource struct{}

func (opencodeSource) Harness() string { return "opencode" }

// StoreRoot follows OpenCode's xdg-basedir rule, which uses
// ~/.local/share on every OS (macOS and Windows included).
func (opencodeSource) StoreRoot(env Env) string {
	if v := env.lookup("XDG_DATA_HOME"); v != "" {
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
		rows, err := db.Query(`SELECT id, directory, time_updated FROM session
			WHERE parent_id IS NULL AND time_archived IS NULL AND time_updated >= ?
			ORDER BY time_updated DESC, id DESC LIMIT ?`, since.UnixMilli(), maxScanFiles)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id, dir string
			var updated int64
			if err := rows.Scan(&id, &dir, &updated); err != nil {
				return err
			}
			if opencodeSameDir(dir, canon) {
				out = append(out, Session{Harness: "opencode", ID: id, Path: path, Cwd: dir,
					ModTime: time.UnixMilli(updated)})
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
	path := o.dbPath(env)
	s := Session{Harness: "opencode", ID: id, Path: path}
	var updated int64
	err := withOpenCodeDB(context.Background(), path, func(db *sql.DB) error {
		return db.QueryRow(`SELECT directory, time_updated FROM session WHERE id = ?`, id).Scan(&s.Cwd, &updated)
	})
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Session{}, Absent, nil
	case errors.Is(err, sql.ErrNoRows):
		return Session{}, Absent, nil
	case err != nil:
		return Session{}, Unknown, fmt.Errorf("find opencode session %s: %w", id, err)
	}
	s.ModTime = time.UnixMilli(updated)
	return s, Present, nil
}
