package ledger

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// DB is an open ledger. It is safe for concurrent use by multiple goroutines,
// and several processes may open the same home at once (SQLite WAL + busy
// timeout); leases serialise the launchers, not the file.
type DB struct {
	// Now is the clock; tests replace it to drive lease expiry without sleeps.
	Now func() time.Time
	// ProcessAlive reports whether a lease owner's process still runs. The
	// default checks the real process (pid exists and has the same start
	// time); tests replace it.
	ProcessAlive func(Owner) bool

	sql    *sql.DB
	home   string
	path   string
	busy   time.Duration
	segFS  segmentFS
	schema int
}

// Options tunes Open. The zero value gives the defaults.
type Options struct {
	// BusyTimeout is how long a statement waits for another process's write
	// lock before failing with ErrLocked. Zero means DefaultBusyTimeout.
	BusyTimeout time.Duration
}

// DefaultBusyTimeout bounds the wait for a write lock held by another process.
const DefaultBusyTimeout = 5 * time.Second

// Open opens (creating if needed) the ledger in home with default options.
func Open(ctx context.Context, home string) (*DB, error) {
	return OpenWith(ctx, home, Options{})
}

// OpenWith opens the ledger in home: it creates home (0700) and ledger.db
// (0600), applies the connection pragmas and the embedded migrations.
func OpenWith(ctx context.Context, home string, opts Options) (*DB, error) {
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = DefaultBusyTimeout
	}
	path, err := prepareFiles(home)
	if err != nil {
		return nil, err
	}
	db := &DB{
		Now:          time.Now,
		ProcessAlive: processAlive,
		home:         home,
		path:         path,
		busy:         opts.BusyTimeout,
		segFS:        osFS{},
	}
	if db.sql, err = openSQLite(path, opts.BusyTimeout); err != nil {
		return nil, fmt.Errorf("open ledger %s: %w", path, err)
	}
	if err := db.migrate(ctx); err != nil {
		db.sql.Close()
		return nil, db.wrap(err, "open ledger "+path)
	}
	return db, nil
}

// prepareFiles creates the home directory and an empty ledger.db with owner
// only permissions, so SQLite (which copies the db file's mode onto its
// -wal and -shm files) never creates anything group- or world-readable.
func prepareFiles(home string) (string, error) {
	if home == "" {
		return "", fmt.Errorf("open ledger: empty data directory")
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return "", fmt.Errorf("create data directory: %w", err)
	}
	path := filepath.Join(home, "ledger.db")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return "", fmt.Errorf("create ledger file: %w", err)
	}
	st, err := f.Stat()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("create ledger file: %w", err)
	}
	if st.Size() == 0 {
		return path, bootstrapSQLite(path)
	}
	return path, nil
}

// Close closes the database.
func (db *DB) Close() error { return db.sql.Close() }

// Home returns the data directory the ledger lives in.
func (db *DB) Home() string { return db.home }

// SchemaVersion returns the schema version of the open ledger.
func (db *DB) SchemaVersion() int { return db.schema }

func (db *DB) now() time.Time { return db.Now().UTC() }

func (db *DB) nowMicro() int64 { return db.Now().UnixMicro() }
