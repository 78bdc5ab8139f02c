package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
)

// backendName is this backend's scheme, and its mark on a batch it prepared.
const backendName = "postgres"

func init() {
	ledger.Register(backendName, driver{})
	ledger.Register("postgresql", driver{})
}

var _ ledger.Ledger = (*DB)(nil)

type driver struct{}

func (driver) Open(ctx context.Context, w ledger.Where) (ledger.Ledger, error) {
	db, err := Open(ctx, w)
	if err != nil {
		return nil, err
	}
	return db, nil
}

func (driver) OpenForCheck(ctx context.Context, w ledger.Where) (ledger.Ledger, error) {
	db, err := OpenForCheck(ctx, w)
	if err != nil {
		return nil, err
	}
	return db, nil
}

// Exists reports whether the database holds a ledger (its schema table).
func (driver) Exists(ctx context.Context, w ledger.Where) (bool, string, error) {
	db, err := connect(ctx, w, false)
	if err != nil {
		return false, ledger.HidePassword(w.Location), err
	}
	defer db.Close()
	v, err := db.currentSchema(ctx)
	return v > 0, db.Location(), db.wrap(err, "check ledger")
}

// Open connects to the ledger at w.Location (a postgres:// URL) with w.Home
// as the local data home, acting as w.Machine (the data home's own id when
// empty), creating or migrating the schema when needed.
func Open(ctx context.Context, w ledger.Where) (*DB, error) {
	db, err := connect(ctx, w, true)
	if err != nil {
		return nil, err
	}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, db.wrap(err, "open ledger "+db.Location())
	}
	return db, nil
}

// OpenForCheck connects without migrating or writing anything (not even a
// machine-id file in the data home).
func OpenForCheck(ctx context.Context, w ledger.Where) (*DB, error) {
	db, err := connect(ctx, w, false)
	if err != nil {
		return nil, err
	}
	if db.schema, err = db.currentSchema(ctx); err != nil {
		db.Close()
		return nil, db.wrap(err, "read ledger schema")
	}
	return db, nil
}

// connectTimeout bounds connecting when the URL sets no connect_timeout, so
// an unreachable server fails a launch fast instead of after the kernel's
// TCP timeout.
const connectTimeout = 5 * time.Second

// connect opens the pool; create says it may create the data home and its
// machine-id file.
func connect(ctx context.Context, w ledger.Where, create bool) (*DB, error) {
	home, location := w.Home, w.Location
	if home == "" {
		return nil, errors.New("open ledger: empty data directory")
	}
	if create {
		if err := os.MkdirAll(home, 0o700); err != nil {
			return nil, fmt.Errorf("create data directory: %w", err)
		}
	}
	machine, err := ledger.MachineOf(ledger.Where{Home: home, Machine: w.Machine}, create)
	if err != nil {
		return nil, err
	}
	lease := w.Lease
	if lease <= 0 {
		lease = ledger.LeaseDuration
	}
	cfg, err := poolConfig(location)
	if err != nil {
		return nil, err
	}
	db := &DB{ProcessAlive: ledger.ProcessAlive, home: home, location: location, store: durable.New(home),
		machine: machine, lease: lease}
	// No ping: the pool connects on the first statement, the schema check
	// every caller makes next, and its errors are wrapped the same way.
	if db.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return nil, db.wrap(err, "open ledger")
	}
	db.merge = newMerger(db.pool)
	return db, nil
}

// poolConfig is the pool's configuration for the ledger URL location.
func poolConfig(location string) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(location)
	if err != nil {
		return nil, ledger.ScrubError(fmt.Errorf("open ledger %s: not a valid PostgreSQL URL (%s); use postgres://user@host:5432/dbname", ledger.HidePassword(location), err), location)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	cfg.MaxConns = 8
	// A process of this CLI runs most statements once (a launch, a search,
	// a status), so preparing each first (a round trip of its own before
	// the execution) costs more than it saves: statements go out in one
	// round trip with their parameters as text. The hot statements of an
	// import name the prepared mode themselves (sqlInsertEvents).
	cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeExec
	return cfg, nil
}

//go:embed migrations/*.sql
var migrationFS embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// migrations are the embedded migrations, in version order.
func migrations() ([]migration, error) {
	ents, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range ents {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must be NNNN_name.sql", e.Name())
		}
		b, err := migrationFS.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	return out, nil
}

// KnownSchemaVersion is the newest schema this binary knows.
func KnownSchemaVersion() int {
	ms, err := migrations()
	if err != nil || len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

const (
	sqlSchemaTable   = `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`
	sqlSchemaVersion = `SELECT COALESCE(MAX(version), 0) FROM schema_version`
	// codeUndefinedTable is SQLSTATE 42P01: schema_version does not exist.
	codeUndefinedTable = "42P01"
	// One migrator at a time in the database, whatever the schema
	// (search_path) it migrates.
	sqlMigrationLock = `SELECT pg_advisory_xact_lock(7291468207313532001)`
)

// currentSchema is the applied version (0: no ledger in this database). It
// is one statement, the first of every open: a database without the schema
// table answers "undefined table" (42P01), which means 0.
func (db *DB) currentSchema(ctx context.Context) (int, error) {
	var v int
	err := db.pool.QueryRow(ctx, sqlSchemaVersion).Scan(&v)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == codeUndefinedTable {
		return 0, nil
	}
	return v, err
}

// migrate applies the missing migrations in one transaction under the
// migration lock, and refuses a schema newer than this binary knows.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	known := ms[len(ms)-1].version
	cur, err := db.currentSchema(ctx)
	if err != nil {
		return err
	}
	if cur == known {
		db.schema = cur
		return nil
	}
	err = pgx.BeginFunc(ctx, db.pool, func(t pgx.Tx) error {
		for _, q := range []string{sqlMigrationLock, sqlSchemaTable} {
			if _, err := t.Exec(ctx, q); err != nil {
				return err
			}
		}
		if err := t.QueryRow(ctx, sqlSchemaVersion).Scan(&cur); err != nil {
			return err
		}
		if cur > known {
			return nil
		}
		for _, m := range ms {
			if m.version <= cur {
				continue
			}
			if _, err := t.Exec(ctx, m.sql); err != nil {
				return fmt.Errorf("migration %s: %w", m.name, err)
			}
			if _, err := t.Exec(ctx, `INSERT INTO schema_version (version) VALUES ($1)`, m.version); err != nil {
				return err
			}
			cur = m.version
		}
		return nil
	})
	if err != nil {
		return err
	}
	if cur > known {
		return ledger.Errorf(ledger.ErrSchemaTooNew, "the ledger %s has schema %d, newer than this ai-memory knows (%d); upgrade ai-memory", db.Location(), cur, known)
	}
	db.schema = cur
	return nil
}
