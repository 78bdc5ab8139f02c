package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
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
	ProcessAlive func(ledger.Owner) bool

	sql    *sql.DB
	home   string
	path   string
	busy   time.Duration
	store  *durable.Store
	schema int
	// machine is the machine id this handle acts as (ledger.Where.Machine).
	machine string
	// lease is the lease length (ledger.LeaseDuration unless a test
	// shortened it).
	lease time.Duration
	// notice is told about a long upgrade (Options.Notice); may be nil.
	notice func(line string)
}

// Options tunes Open. The zero value gives the defaults.
type Options struct {
	// BusyTimeout is how long a statement waits for another process's write
	// lock before failing with ErrLocked. Zero means DefaultBusyTimeout.
	BusyTimeout time.Duration
	// File is the ledger file; "" means FileName in the data home.
	File string
	// Machine is the machine id to act as; "" means the data home's own
	// (its machine-id file, created on first use).
	Machine string
	// Lease is the lease length; zero means ledger.LeaseDuration.
	Lease time.Duration
	// Notice is ledger.Where's: told before and after a long upgrade.
	Notice func(line string)
}

// DefaultBusyTimeout bounds the wait for a write lock held by another process.
const DefaultBusyTimeout = 5 * time.Second

// Open opens (creating if needed) the ledger in home with default options.
func Open(ctx context.Context, home string) (*DB, error) {
	return OpenWith(ctx, home, Options{})
}

// OpenWith opens the ledger of home: it creates home (0700) and the ledger
// file (0600; opts.File, else ledger.db in home) and its directory, applies
// the connection pragmas and the embedded migrations.
func OpenWith(ctx context.Context, home string, opts Options) (*DB, error) {
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = DefaultBusyTimeout
	}
	if opts.Lease <= 0 {
		opts.Lease = ledger.LeaseDuration
	}
	path, err := prepareFiles(home, opts.file(home), opts.BusyTimeout)
	if err != nil {
		return nil, err
	}
	machine, err := ledger.MachineOf(ledger.Where{Home: home, Machine: opts.Machine}, true)
	if err != nil {
		return nil, err
	}
	db := &DB{
		machine:      machine,
		lease:        opts.Lease,
		Now:          time.Now,
		ProcessAlive: ledger.ProcessAlive,
		home:         home,
		path:         path,
		busy:         opts.BusyTimeout,
		store:        durable.New(home),
		notice:       opts.Notice,
	}
	if db.sql, err = openSQLite(path, opts.BusyTimeout); err != nil {
		return nil, fmt.Errorf("open ledger %s: %w", path, err)
	}
	if err := db.migrate(ctx); err != nil {
		db.sql.Close()
		return nil, db.wrap(err, "open ledger "+path)
	}
	if err := db.ensureStateSnapshots(ctx); err != nil {
		db.sql.Close()
		return nil, db.wrap(err, "open ledger "+path)
	}
	return db, nil
}

// prepareFiles creates the home directory and, when there is no ledger
// file yet, a fully initialised one (createLedgerFile). The returned path always
// names a SQLite file with its final page size in WAL mode, so processes
// that open a fresh home at once only ever meet a complete file and then
// wait on the busy timeout like every other writer.
func prepareFiles(home, path string, busy time.Duration) (string, error) {
	if home == "" {
		return "", fmt.Errorf("open ledger: empty data directory")
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return "", fmt.Errorf("create data directory: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("create ledger directory: %w", err)
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return path, createLedgerFile(filepath.Dir(path), path, busy)
	case err != nil:
		return "", fmt.Errorf("open ledger file: %w", err)
	case st.Size() == 0:
		return path, initInPlace(path, busy)
	}
	return path, checkWritable(path)
}

func (o Options) file(home string) string {
	if o.File != "" {
		return o.File
	}
	return filepath.Join(home, FileName)
}

// checkWritable fails with a permission error when this user cannot open
// the existing ledger for writing. SQLite would otherwise fall back to a
// read-only connection silently, and the first write, often long after the
// agent started, would fail with "attempt to write a readonly database".
func checkWritable(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("open ledger file: %w", err)
	}
	return f.Close()
}

// Close closes the database.
func (db *DB) Close() error { return db.sql.Close() }

// Home returns the data directory the ledger lives in.
func (db *DB) Home() string { return db.home }

// Location returns the ledger file, for messages.
func (db *DB) Location() string { return db.path }

// File returns the ledger file (FileBacked).
func (db *DB) File() string { return db.path }

// Machine returns the machine id this handle acts as.
func (db *DB) Machine() string { return db.machine }

// here is a lease owner on this machine and host, to compare holders with.
func (db *DB) here() ledger.Owner {
	return ledger.Owner{Machine: db.machine, Host: ledger.Host()}
}

// SchemaVersion returns the schema version of the open ledger.
func (db *DB) SchemaVersion() int { return db.schema }

func (db *DB) now() time.Time { return db.Now().UTC() }

func (db *DB) nowMicro() int64 { return db.Now().UnixMicro() }
