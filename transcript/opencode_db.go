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

// opencodeDB is OpenCode's store opened for reading, so that the store
// directory is left exactly as it was:
//
//   - With opencode.db-wal present (OpenCode running, or not checkpointed
//     yet) it opens mode=ro: no write lock, nothing created; SQLite maps the
//     existing -shm index (it sets read marks there, as every WAL reader
//     must, to see a consistent snapshot of a live writer).
//   - Without it, mode=ro alone would create -wal and -shm beside the
//     database (measured: TestOpenCodeStoreUntouched), so it opens
//     immutable=1 — no locks, no side files — and after every query checks
//     that no writer appeared meanwhile: still no -wal, database size and
//     mtime unchanged. If one did, the query may have raced a checkpoint,
//     so it is run again on a mode=ro connection, used from then on.
//     immutable=1 is therefore never trusted while OpenCode writes.
//
// One connection serves all queries of a read (its page cache matters:
// reopening per query made a 120k-part import I/O bound); each query is its
// own implicit transaction, so no WAL snapshot is held between them.
type opencodeDB struct {
	path      string
	db        *sql.DB
	immutable bool
	stat      os.FileInfo // of the database when opened immutable
}

// openOpenCode opens the store; a missing database is fs.ErrNotExist.
func openOpenCode(ctx context.Context, path string) (*opencodeDB, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("open opencode store: %w", err)
	}
	o := &opencodeDB{path: path, immutable: !walExists(path), stat: st}
	if o.db, err = openOpenCodeConn(ctx, path, o.immutable); err != nil {
		return nil, err
	}
	return o, nil
}

// do runs fn, one read that is safe to run twice.
func (o *opencodeDB) do(ctx context.Context, fn func(*sql.DB) error) error {
	if err := fn(o.db); err != nil || !o.immutable {
		return err
	}
	if st, err := os.Stat(o.path); err == nil && !walExists(o.path) &&
		st.Size() == o.stat.Size() && st.ModTime().Equal(o.stat.ModTime()) {
		return nil
	}
	o.db.Close()
	var err error
	o.immutable = false
	if o.db, err = openOpenCodeConn(ctx, o.path, false); err != nil {
		return err
	}
	return fn(o.db)
}

func (o *opencodeDB) Close() error { return o.db.Close() }

// withOpenCodeDB opens the store, runs fn once and closes it.
func withOpenCodeDB(ctx context.Context, path string, fn func(*sql.DB) error) error {
	o, err := openOpenCode(ctx, path)
	if err != nil {
		return err
	}
	defer o.Close()
	return o.do(ctx, fn)
}

func walExists(path string) bool {
	_, err := os.Stat(path + "-wal")
	return err == nil
}

// openOpenCodeConn opens one read-only connection (immutable when asked).
// query_only guards against a stray write statement.
func openOpenCodeConn(ctx context.Context, path string, immutable bool) (*sql.DB, error) {
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
		return nil, fmt.Errorf("open opencode store %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(0)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open opencode store %s (is it an OpenCode database?): %w", path, err)
	}
	return db, nil
}
