package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/ai-memory/ai-memory/ledger"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// openSQLite opens the file with the connection pragmas, then extra ones
// (OpenForCheck adds query_only). _txlock=immediate makes every BeginTx a
// BEGIN IMMEDIATE, so a read-then-write transaction takes the write lock up
// front and never fails on upgrade.
func openSQLite(file string, busy time.Duration, extra ...string) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(1)")
	for _, p := range extra {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	dsn := "file:" + (&url.URL{Path: file}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(2)
	return db, nil
}

// pageSize suits rows of ~0.5-1 KiB: far fewer page-tail bytes are wasted
// than with 4 KiB pages, which keeps the ledger under 2x the text it stores.
const pageSize = 16384

type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the embedded migrations ordered by their numeric prefix.
func migrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		v, err := strconv.Atoi(strings.SplitN(e.Name(), "_", 2)[0])
		if err != nil {
			return nil, fmt.Errorf("migration %s: bad version prefix", e.Name())
		}
		b, err := migrationFS.ReadFile(path.Join("migrations", e.Name()))
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: e.Name(), sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms, nil
}

// KnownSchemaVersion is the newest schema version this binary can use.
func KnownSchemaVersion() int {
	ms, err := migrations()
	if err != nil || len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

const sqlCreateVersionTable = `CREATE TABLE IF NOT EXISTS schema_version (
  version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`

// migrate applies every pending migration, each in its own IMMEDIATE
// transaction that re-reads the version, so two processes opening a fresh
// home at once apply each migration exactly once.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return fmt.Errorf("read embedded migrations: %w", err)
	}
	known := ms[len(ms)-1].version
	// Fast path, every open but the first after an upgrade: one read, no
	// write transaction (it is on the launcher's path before the agent starts).
	var cur int
	if db.sql.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&cur) == nil {
		if cur > known {
			return ledger.Errorf(ledger.ErrSchemaTooNew, "ledger schema version %d is newer than this ai-memory (knows %d); upgrade ai-memory", cur, known)
		}
		if cur == known {
			db.schema = known
			return nil
		}
	}
	if _, err := db.sql.ExecContext(ctx, sqlCreateVersionTable); err != nil {
		return err
	}
	defer db.announceUpgrade(ctx, cur, known)()
	applied, repacked := false, false
	for _, m := range ms {
		ok, err := db.applyMigration(ctx, m, known)
		if err != nil {
			return err
		}
		applied = applied || ok
		repacked = repacked || ok && m.version == packedTextSchema
	}
	db.schema = known
	if applied {
		db.compactAfterMigration(ctx, repacked)
	}
	return nil
}

// upgradeNoticeEvents is the size from which an upgrade is announced: the
// table-rewriting migrations take ~45 µs an event here (9 s for 200,000),
// so a smaller ledger upgrades before anyone wonders.
var upgradeNoticeEvents int64 = 20000

// announceUpgrade tells db.notice, for a ledger of at least
// upgradeNoticeEvents events at schema cur, that it is being upgraded,
// and returns what tells that it is done.
func (db *DB) announceUpgrade(ctx context.Context, cur, known int) func() {
	var n int64
	if db.notice == nil || cur == 0 ||
		db.sql.QueryRowContext(ctx, `SELECT COALESCE(SUM(event_count), 0) FROM workstreams`).Scan(&n) != nil ||
		n < upgradeNoticeEvents {
		return func() {}
	}
	start := time.Now()
	db.notice(fmt.Sprintf("upgrading the ledger %s (%d events) from schema %d to %d: this runs once and takes about a minute per million events; if it is interrupted, nothing is lost and it resumes next time",
		db.path, n, cur, known))
	return func() {
		if db.schema == known {
			db.notice(fmt.Sprintf("ledger upgraded to schema %d in %.1f s", known, time.Since(start).Seconds()))
		}
	}
}

// applyMigration applies m unless the ledger already has it; applied
// reports whether this call did.
func (db *DB) applyMigration(ctx context.Context, m migration, known int) (applied bool, err error) {
	err = db.withTx(ctx, func(tx *sql.Tx) error {
		var cur int
		err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&cur)
		if err != nil {
			return err
		}
		if cur > known {
			return ledger.Errorf(ledger.ErrSchemaTooNew, "ledger schema version %d is newer than this ai-memory (knows %d); upgrade ai-memory", cur, known)
		}
		if cur >= m.version {
			return nil
		}
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("apply migration %s: %w", m.name, err)
		}
		if m.version == machineSchema {
			if err := db.adoptMachine(ctx, tx); err != nil {
				return fmt.Errorf("apply migration %s: %w", m.name, err)
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)`,
			m.version, m.name, db.nowMicro())
		applied = err == nil
		return err
	})
	return applied && err == nil, err
}

// compactAfterMigration hands the space a table-rebuilding migration freed
// back to the file system: when at least a quarter of the file is free
// pages, or always after packing the text in place (force: the rows shrink
// but their pages stay, a third emptier, so no page is free), it runs
// VACUUM and truncates the WAL. It is best effort: if it fails (say another
// process is writing), the ledger is still complete and correct and later
// appends reuse the space, so Open does not fail.
func (db *DB) compactAfterMigration(ctx context.Context, force bool) {
	var free, total int64
	if !force && (db.sql.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&free) != nil ||
		db.sql.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&total) != nil || free*4 < total) {
		return
	}
	if _, err := db.sql.ExecContext(ctx, `VACUUM`); err == nil {
		db.sql.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	}
}

// machineSchema is the migration that gave links and runs a machine.
const machineSchema = 5

// packedTextSchema is the migration that packs the stored text in place.
const packedTextSchema = 6

// adoptMachine is the Go side of migrations/0005, in its transaction: the
// links and runs written before machines existed become this machine's,
// the one that made and upgrades a local ledger.
func (db *DB) adoptMachine(ctx context.Context, tx *sql.Tx) error {
	for _, q := range []string{sqlAdoptLinks, sqlAdoptRuns} {
		if _, err := tx.ExecContext(ctx, q, db.machine); err != nil {
			return err
		}
	}
	return nil
}

// withTx runs fn in one IMMEDIATE transaction, committing on success.
func (db *DB) withTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// wrap adds context to err and turns SQLite's lock and corruption codes into
// one-line messages that say what to do next.
func (db *DB) wrap(err error, op string) error {
	if err == nil {
		return nil
	}
	var ue *ledger.UserError
	var be *ledger.BusyError
	if errors.As(err, &ue) || errors.As(err, &be) {
		return err // already a complete one-line message
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return fmt.Errorf("%s: %w", op, err)
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return ledger.Errorf(ledger.ErrLocked,
			"%s: ledger %s is locked by another process (waited %s); retry, or stop the process holding it",
			op, db.path, db.busy)
	case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
		return fmt.Errorf("%s: %s is not a valid ai-memory ledger (%v); move it and its -wal and -shm files aside, then run `ai-memory ledger rebuild` (the segments hold the history)", op, db.path, err)
	case sqlite3.SQLITE_FULL:
		return fmt.Errorf("%s: disk full writing %s; free space and retry: %w", op, db.path, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}
