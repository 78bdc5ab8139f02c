package transcript

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // database/sql driver "sqlite", for OpenCode's store
)

// openCodeBusy bounds how long a read waits for OpenCode's writer: in WAL
// mode readers only wait while the WAL index is being rebuilt.
const openCodeBusy = 5 * time.Second

// withOpenCodeDB runs fn (one short read, safe to run twice) on OpenCode's
// store, opened so that the store directory is left exactly as it was:
//
//   - With opencode.db-wal present (OpenCode running, or not checkpointed
//     yet) it opens mode=ro: no write lock, nothing created; SQLite maps the
//     existing -shm index (it sets read marks there, as every WAL reader
//     must, to see a consistent snapshot of a live writer).
//   - Without it, mode=ro alone would create -wal and -shm beside the
//     database (measured: TestOpenCodeStoreUntouched), so it opens
//     immutable=1 — no locks, no side files — and then checks that no
//     writer appeared meanwhile: still no -wal, database size and mtime
//     unchanged. If one did, the read may have raced a checkpoint, so fn
//     runs again in mode=ro (now that the -wal exists, nothing is created).
//     immutable=1 is therefore never trusted while OpenCode writes.
//
// A missing database is reported as fs.ErrNotExist without opening.
func withOpenCodeDB(ctx context.Context, path string, fn func(*sql.DB) error) error {
	before, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("open opencode store: %w", err)
	}
	if walExists(path) {
		return runOpenCode(ctx, path, false, fn)
	}
	if err := runOpenCode(ctx, path, true, fn); err != nil {
		return err
	}
	after, err := os.Stat(path)
	if err == nil && !walExists(path) && after.Size() == before.Size() && after.ModTime().Equal(before.ModTime()) {
		return nil
	}
	return runOpenCode(ctx, path, false, fn)
}

func walExists(path string) bool {
	_, err := os.Stat(path + "-wal")
	return err == nil
}

// runOpenCode opens the store (read-only; immutable when asked), runs fn
// and closes it. query_only guards against a stray write statement.
func runOpenCode(ctx context.Context, path string, immutable bool, fn func(*sql.DB) error) error {
	q := url.Values{}
	q.Set("mode", "ro")
	if immutable {
		q.Set("immutable", "1")
	}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", openCodeBusy.Milliseconds()))
	q.Add("_pragma", "query_only(1)")
	dsn := "file:" + (&url.URL{Path: filepath.ToSlash(path)}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return fmt.Errorf("open opencode store %s: %w", path, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		return fmt.Errorf("open opencode store %s (is it an OpenCode database?): %w", path, err)
	}
	return fn(db)
}
