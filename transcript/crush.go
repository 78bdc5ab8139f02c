package transcript

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// crushSource reads Crush (charmbracelet/crush 0.90) sessions. Crush keeps
// one SQLite database per project, <data dir>/crush.db, where the data dir
// is <project>/.crush unless configured otherwise; every start records
// {path, data_dir} in projects.json in its global data directory
// ($CRUSH_GLOBAL_DATA, $XDG_DATA_HOME/crush or ~/.local/share/crush), which
// is this source's store root. Tables (internal/db/migrations): sessions
// (no cwd column: the project is where the database lives) and messages
// with a JSON parts array. Its cursor is a [CrushCursor], its progress unit
// messages, and a session's Size its message count.
type crushSource struct{}

// CrushSource returns the Crush store reader.
func CrushSource() Source { return crushSource{} }

const (
	crushDataEnv = "CRUSH_GLOBAL_DATA"
	crushXDGData = "XDG_DATA_HOME"
	crushDBName  = "crush.db"
	crushWhat    = "crush store"
)

func (crushSource) Harness() string { return "crush" }

func (crushSource) StoreEnv() []string { return []string{crushDataEnv, crushXDGData} }

// StoreRoot is Crush's global data directory (GlobalConfigData's dir),
// which holds projects.json.
func (crushSource) StoreRoot(env Env) string {
	if v := env.lookup(crushDataEnv); v != "" {
		return v
	}
	if v := env.lookup(crushXDGData); v != "" {
		return filepath.Join(v, "crush")
	}
	return filepath.Join(env.Home, ".local", "share", "crush")
}

// crushProject is one entry of projects.json.
type crushProject struct {
	Path    string `json:"path"`
	DataDir string `json:"data_dir"`
}

// projects reads projects.json; a missing file is no projects.
func (c crushSource) projects(env Env) ([]crushProject, error) {
	data, err := os.ReadFile(filepath.Join(c.StoreRoot(env), "projects.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read crush project list: %w", err)
	}
	var list struct {
		Projects []crushProject `json:"projects"`
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("read crush project list: %w", err)
	}
	for i, p := range list.Projects {
		if p.DataDir != "" && !filepath.IsAbs(p.DataDir) {
			list.Projects[i].DataDir = filepath.Join(p.Path, p.DataDir)
		}
	}
	return list.Projects, nil
}

// databases returns the databases that may hold sessions of checkout: the
// data dirs projects.json records for it, then <checkout>/.crush (Crush's
// default, for a store written before it was listed). An unreadable
// project list is skipped: the checkout's own database still counts.
func (c crushSource) databases(env Env, canon string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(dir string) {
		p := filepath.Join(dir, crushDBName)
		if real, ok := canonical(p); ok {
			p = real
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	projects, _ := c.projects(env)
	for _, p := range projects {
		if p.DataDir != "" && sameDir(p.Path, canon) {
			add(p.DataDir)
		}
	}
	add(filepath.Join(canon, ".crush"))
	return out
}

// WatchRoots are the checkout's database directories and the global data
// directory (where projects.json is written on start).
func (c crushSource) WatchRoots(env Env, checkout string) []string {
	roots := []string{c.StoreRoot(env)}
	canon, ok := canonical(checkout)
	if !ok {
		return roots
	}
	for _, db := range c.databases(env, canon) {
		roots = append(roots, filepath.Dir(db))
	}
	return roots
}

func (c crushSource) List(env Env, checkout string, limit int) ([]Session, error) {
	ss, err := c.sessions(env, checkout, time.Time{})
	return limitSessions(ss, limit), err
}

func (c crushSource) CreatedSince(env Env, checkout string, since time.Time) ([]Session, error) {
	return c.sessions(env, checkout, since.Add(-createdSlack))
}

// sessions returns the top-level sessions (sub-agent sessions have a
// parent) of checkout's databases updated since since, newest first.
func (c crushSource) sessions(env Env, checkout string, since time.Time) ([]Session, error) {
	canon, ok := canonical(checkout)
	if !ok {
		return nil, nil // fail closed
	}
	var out []Session
	for _, path := range c.databases(env, canon) {
		ss, err := crushList(path, canon, since)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("list crush sessions: %w", err)
		}
		out = append(out, ss...)
	}
	newestFirst(out)
	return out, nil
}

// crushSessionCols are the columns of a listing: the session's own
// updated_at (Crush's triggers stamp it on every message insert) and its
// message count (both from indexes: cheap however long the session).
const crushSessionCols = `s.id, s.updated_at,
	(SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id)`

// crushLookupCols also read the session's newest messages (the only ones
// Crush rewrites, while an assistant reply streams): their newest
// updated_at and the byte length of their parts, a change stamp (see
// crushLookup).
const crushLookupCols = crushSessionCols + `,
	COALESCE((SELECT MAX(u) FROM (SELECT m.updated_at AS u FROM messages m
		WHERE m.session_id = s.id ORDER BY m.rowid DESC LIMIT 50)), 0),
	COALESCE((SELECT SUM(n) FROM (SELECT LENGTH(CAST(m.parts AS BLOB)) AS n FROM messages m
		WHERE m.session_id = s.id ORDER BY m.rowid DESC LIMIT 50)), 0)`

// crushList lists one database's top-level sessions updated since since.
func crushList(path, cwd string, since time.Time) ([]Session, error) {
	var out []Session
	err := withROSQLite(context.Background(), path, crushWhat, func(db *sql.DB) error {
		out = out[:0]
		rows, err := db.Query(`SELECT `+crushSessionCols+` FROM sessions s
			WHERE s.parent_session_id IS NULL ORDER BY s.updated_at DESC, s.id DESC LIMIT ?`, maxScanFiles)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			s, err := scanCrushSession(rows, path, cwd)
			if err != nil {
				return err
			}
			if !s.ModTime.Before(since) {
				out = append(out, s)
			}
		}
		return rows.Err()
	})
	return out, err
}

// scanCrushSession fills a Session from crushSessionCols.
func scanCrushSession(sc interface{ Scan(...any) error }, path, cwd string) (Session, error) {
	s := Session{Harness: "crush", Path: path, Cwd: cwd}
	var updated int64
	if err := sc.Scan(&s.ID, &updated, &s.Size); err != nil {
		return Session{}, err
	}
	s.ModTime = crushTime(updated)
	return s, nil
}

// crushTime reads a Crush timestamp. Its queries write Unix seconds
// (strftime('%s')) although the schema comments say milliseconds; a value
// too large for seconds is read as milliseconds.
func crushTime(v int64) time.Time {
	if v > 1e11 {
		return time.UnixMilli(v)
	}
	return time.Unix(v, 0)
}

// Find looks the id up in every project database projects.json lists. A
// missing list or database is Absent; an unreadable one is Unknown unless
// another database has the session.
func (c crushSource) Find(env Env, id string) (Session, Existence, error) {
	projects, err := c.projects(env)
	if err != nil {
		return Session{}, Unknown, fmt.Errorf("find crush session %s: %w", id, err)
	}
	var firstErr error
	for _, p := range projects {
		path := filepath.Join(p.DataDir, crushDBName)
		s, err := crushLookup(path, id)
		switch {
		case err == nil:
			s.Cwd = p.Path
			return s, Present, nil
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, sql.ErrNoRows):
		case firstErr == nil:
			firstErr = err
		}
	}
	if firstErr != nil {
		return Session{}, Unknown, fmt.Errorf("find crush session %s: %w", id, firstErr)
	}
	return Session{}, Absent, nil
}

// crushLookup reads one session of the database at path. Crush's
// timestamps are whole seconds, so a reply rewritten within the second it
// was written would leave ModTime as it was: the nanoseconds of ModTime
// carry the byte length of the newest messages' parts instead, so that
// [crushSource.Settled] sees every rewrite.
func crushLookup(path, id string) (Session, error) {
	s := Session{Harness: "crush", Path: path}
	err := withROSQLite(context.Background(), path, crushWhat, func(db *sql.DB) error {
		var updated, newest, stamp int64
		err := db.QueryRow(`SELECT `+crushLookupCols+` FROM sessions s WHERE s.id = ?`, id).
			Scan(&s.ID, &updated, &s.Size, &newest, &stamp)
		s.ModTime = crushTime(max(updated, newest)).Truncate(time.Second).Add(time.Duration(stamp % 1e9))
		return err
	})
	return s, err
}

// Read imports the messages of s after the cursor from (see ReadFrom).
func (c crushSource) Read(ctx context.Context, s Session, from Cursor, opt ReadOptions, emit func(Batch) error) error {
	return c.ReadFrom(ctx, s, crushCursorFrom(from), opt, func(b CrushBatch) error {
		return emit(Batch{Events: b.Events, Losses: b.Losses, Cursor: b.Cursor.encode()})
	})
}

// Progress counts messages: those the cursor passed, out of the session's
// count when it was observed.
func (crushSource) Progress(s Session, c Cursor) (done, total int64) {
	return min(crushCursorFrom(c).N, s.Size), s.Size
}

// Refresh re-reads the session's row (indexed queries, no scan).
func (crushSource) Refresh(s Session) (Session, bool) {
	if s.Path == "" || s.ID == "" {
		return s, false
	}
	now, err := crushLookup(s.Path, s.ID)
	if err != nil {
		return s, false
	}
	now.Cwd = s.Cwd
	return now, true
}

// Settled: no message was added or rewritten between the observations
// (taken after the agent exited; Crush's timestamps are whole seconds).
func (crushSource) Settled(before, after Session) bool {
	return before.ID == after.ID && before.Size == after.Size && before.ModTime.Equal(after.ModTime)
}

// WrittenAfterExit is false: Crush writes its database from its own
// process (`crush run` and the TUI alike).
func (crushSource) WrittenAfterExit() bool { return false }
