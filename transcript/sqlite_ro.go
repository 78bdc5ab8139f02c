package transcript

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"
)

// roBusy bounds how long a read waits for a store's writer: in WAL mode
// readers only wait while the WAL index is being rebuilt.
const roBusy = 5 * time.Second

// roSQLite is another program's SQLite store opened for reading so that its
// directory is left exactly as it was. It follows the rule worked out for
// OpenCode's store (see opencodeDB, which measured it):
//
//   - with <db>-wal present (the writer is running, or has not
//     checkpointed) it opens mode=ro: no write lock, nothing created;
//   - without it, mode=ro alone would create -wal and -shm, so it opens
//     immutable=1 and after every query checks that no writer appeared
//     meanwhile (still no -wal, same size and mtime); if one did, the query
//     is run again on a mode=ro connection, used from then on.
//
// what names the store in errors ("crush store").
type roSQLite struct {
	path, what string
	db         *sql.DB
	immutable  bool
	stat       os.FileInfo
}

// openROSQLite opens the store; a missing database is fs.ErrNotExist.
func openROSQLite(ctx context.Context, path, what string) (*roSQLite, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", what, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("open %s %s: not a regular file", what, path)
	}
	o := &roSQLite{path: path, what: what, immutable: !walExists(path), stat: st}
	if o.db, err = openROConn(ctx, path, what, o.immutable); err != nil {
		return nil, err
	}
	return o, nil
}

// do runs fn, one read that is safe to run twice.
func (o *roSQLite) do(ctx context.Context, fn func(*sql.DB) error) error {
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
	if o.db, err = openROConn(ctx, o.path, o.what, false); err != nil {
		return err
	}
	return fn(o.db)
}

func (o *roSQLite) Close() error { return o.db.Close() }

// withROSQLite opens the store, runs fn once and closes it.
func withROSQLite(ctx context.Context, path, what string, fn func(*sql.DB) error) error {
	o, err := openROSQLite(ctx, path, what)
	if err != nil {
		return err
	}
	defer o.Close()
	return o.do(ctx, fn)
}

// openROConn opens one read-only connection (immutable when asked).
// query_only guards against a stray write statement.
func openROConn(ctx context.Context, path, what string, immutable bool) (*sql.DB, error) {
	q := url.Values{}
	q.Set("mode", "ro")
	if immutable {
		q.Set("immutable", "1")
	}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", roBusy.Milliseconds()))
	q.Add("_pragma", "query_only(1)")
	dsn := "file:" + (&url.URL{Path: filepath.ToSlash(path)}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s %s: %w", what, path, err)
	}
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(0)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s %s: %w", what, path, err)
	}
	return db, nil
}
