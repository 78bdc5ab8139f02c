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
	"time"

	_ "modernc.org/sqlite" // database/sql driver "sqlite", for OpenCode's store
)

// opencodeSource reads OpenCode (npm opencode-ai 1.18) sessions from its
// one SQLite store, $XDG_DATA_HOME/opencode/opencode.db: table session
// (directory = the cwd it ran in), message and part (JSON data). It is not
// in the registry yet: its cursor is an [OpenCodeCursor], not a byte offset,
// and waits for the opaque-cursor interface.
//
// The store is opened with mode=ro only (see openOpenCodeDB); the v2 tables
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
	db, err := openOpenCodeDB(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.Query(`SELECT id, directory, time_updated FROM session
		WHERE parent_id IS NULL AND time_archived IS NULL AND time_updated >= ?
		ORDER BY time_updated DESC, id DESC LIMIT ?`, since.UnixMilli(), maxScanFiles)
	if err != nil {
		return nil, fmt.Errorf("list opencode sessions: %w", err)
	}
	defer rows.Close()
	var out []Session
	for rows.Next() {
		var id, dir string
		var updated int64
		if err := rows.Scan(&id, &dir, &updated); err != nil {
			return nil, fmt.Errorf("list opencode sessions: %w", err)
		}
		if opencodeSameDir(dir, canon) {
			out = append(out, Session{Harness: "opencode", ID: id, Path: path, Cwd: dir,
				ModTime: time.UnixMilli(updated)})
		}
	}
	if err := rows.Err(); err != nil {
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
	db, err := openOpenCodeDB(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Session{}, Absent, nil
	}
	if err != nil {
		return Session{}, Unknown, err
	}
	defer db.Close()
	s := Session{Harness: "opencode", ID: id, Path: path}
	var updated int64
	err = db.QueryRow(`SELECT directory, time_updated FROM session WHERE id = ?`, id).Scan(&s.Cwd, &updated)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Session{}, Absent, nil
	case err != nil:
		return Session{}, Unknown, fmt.Errorf("find opencode session %s: %w", id, err)
	}
	s.ModTime = time.UnixMilli(updated)
	return s, Present, nil
}

// openCodeBusy bounds how long a read waits for OpenCode's writer: in WAL
// mode readers only wait while the WAL index is being rebuilt.
const openCodeBusy = 5 * time.Second

// openOpenCodeDB opens OpenCode's store read-only. mode=ro never creates or
// writes the database and takes no write lock; with a live writer SQLite
// still maps the -shm index (read marks only), which WAL readers need to see
// a consistent snapshot. immutable=1 is never used: it would skip locking
// and read torn pages while OpenCode writes. query_only guards against a
// stray write statement. A missing file is reported as fs.ErrNotExist
// without opening (mode=ro would fail anyway, but with a vaguer error).
func openOpenCodeDB(path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open opencode store: %w", err)
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", openCodeBusy.Milliseconds()))
	q.Add("_pragma", "query_only(1)")
	dsn := "file:" + (&url.URL{Path: filepath.ToSlash(path)}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open opencode store %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if err := db.PingContext(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("open opencode store %s (is it an OpenCode database?): %w", path, err)
	}
	return db, nil
}
