package sqlite

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
)

const (
	defaultIntegrityBudget = 10 * time.Second
	defaultQuickCheckAbove = 256 << 20
	maxIntegrityProblems   = 10
)

// OpenForCheck opens an existing ledger for inspection only: no migration,
// no snapshot, and a query-only connection, so a check never changes the
// ledger, whatever its schema version. It fails when there is no ledger
// file (opts.File, else ledger.db in home). Its machine is opts.Machine,
// else the data home's own id, none when the home has none yet (nothing
// is created).
func OpenForCheck(ctx context.Context, home string, opts Options) (*DB, error) {
	path := opts.file(home)
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open ledger %s: %w", path, err)
	}
	db := &DB{Now: time.Now, ProcessAlive: ledger.ProcessAlive, home: home, path: path, busy: DefaultBusyTimeout, store: durable.New(home), lease: ledger.LeaseDuration}
	var err error
	if db.machine, err = ledger.MachineOf(ledger.Where{Home: home, Machine: opts.Machine}, false); err != nil {
		return nil, err
	}
	if db.sql, err = openSQLite(path, DefaultBusyTimeout, "query_only(1)"); err != nil {
		return nil, fmt.Errorf("open ledger %s: %w", path, err)
	}
	var cur int
	if err := db.sql.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&cur); err != nil {
		db.sql.Close()
		return nil, db.wrap(err, "read ledger schema")
	}
	db.schema = cur
	return db, nil
}

// Health checks the ledger: schema, integrity (bounded by opt), disk use
// and live leases. An integrity problem is reported in the result; the
// error is for a ledger that could not be queried at all.
func (db *DB) Health(ctx context.Context, opt ledger.HealthOptions) (ledger.Health, error) {
	h := ledger.Health{Location: db.path, Schema: db.schema, KnownSchema: KnownSchemaVersion(), Unwritable: checkWritable(db.path)}
	var err error
	if h.Sizes, err = homeSizes(db.home, db.path); err != nil {
		return h, err
	}
	h.Integrity = db.integrity(ctx, opt, h.Sizes[0].Bytes)
	h.Leases, err = db.liveLeases(ctx)
	return h, err
}

// integrity runs integrity_check, or quick_check on a big file, within the
// budget; SQLite stops at the deadline (the driver interrupts it).
func (db *DB) integrity(ctx context.Context, opt ledger.HealthOptions, size int64) ledger.Integrity {
	budget, above := opt.IntegrityBudget, opt.QuickCheckAbove
	if budget <= 0 {
		budget = defaultIntegrityBudget
	}
	if above <= 0 {
		above = defaultQuickCheckAbove
	}
	in := ledger.Integrity{Check: "integrity_check"}
	if size > above {
		in.Check = "quick_check"
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	msgs, err := queryStrings(ctx, db.sql, fmt.Sprintf("PRAGMA %s(%d)", in.Check, maxIntegrityProblems))
	in.Took = time.Since(start)
	switch {
	case ctx.Err() != nil:
		return in
	case err != nil:
		in.Complete, in.Problems = true, []string{db.wrap(err, in.Check).Error()}
	case len(msgs) == 1 && msgs[0] == "ok":
		in.Complete = true
	default:
		in.Complete, in.Problems = true, problemLines(msgs)
	}
	return in
}

// problemLines splits SQLite's report (one row may hold several lines)
// into one problem per line, without its "*** in database main ***"
// headers.
func problemLines(msgs []string) []string {
	var out []string
	for _, m := range msgs {
		for _, l := range strings.Split(m, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "*** in database") {
				out = append(out, l)
			}
		}
	}
	return out
}

// liveLeases lists the active runs whose lease has not expired, marking
// those of this machine whose process is gone. A ledger not migrated yet
// (doctor never migrates) has no owner machine: its runs count as this
// machine's, as the migration will make them.
func (db *DB) liveLeases(ctx context.Context) ([]ledger.Lease, error) {
	cols := runColumns
	if db.schema < machineSchema {
		cols = strings.Replace(cols, "owner_machine", fmt.Sprintf("'%s'", db.machine), 1) // a checked id: no quote in it
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT `+cols+` FROM runs WHERE state = 'active' AND lease_expires_at > ? ORDER BY started_at`, db.nowMicro())
	if err != nil {
		return nil, db.wrap(err, "list leases")
	}
	defer rows.Close()
	here := db.here()
	var out []ledger.Lease
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, db.wrap(err, "list leases")
		}
		out = append(out, ledger.Lease{Harness: r.Harness, WorkstreamID: r.WorkstreamID, Host: r.Owner.Host, PID: r.Owner.PID,
			Until: r.LeaseExpiresAt, Stale: ledger.SameMachine(r.Owner, here) && !db.ProcessAlive(r.Owner)})
	}
	return out, db.wrap(rows.Err(), "list leases")
}

// homeSizes sums the data home by part; the ledger file comes first.
// A ledger file outside the home (a location naming a file) is counted
// as the ledger all the same.
func homeSizes(home, file string) ([]ledger.SizePart, error) {
	parts := []ledger.SizePart{{Name: "ledger"}, {Name: "wal"}, {Name: "segments"}, {Name: "other"}}
	err := filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed meanwhile (a temp file, a checkpointed WAL)
		}
		if err != nil {
			return err
		}
		parts[sizePart(home, p)].Bytes += info.Size()
		return nil
	})
	if err != nil {
		return parts, fmt.Errorf("measure data home %s: %w", home, err)
	}
	if file != filepath.Join(home, FileName) {
		for i, suffix := range []string{"", "-wal", "-shm"} {
			if st, err := os.Stat(file + suffix); err == nil {
				parts[min(i, 1)].Bytes += st.Size()
			}
		}
	}
	return parts, nil
}

// sizePart is the index in homeSizes's parts of the file at p.
func sizePart(home, p string) int {
	rel, _ := filepath.Rel(home, p)
	switch {
	case rel == "ledger.db":
		return 0
	case rel == "ledger.db-wal" || rel == "ledger.db-shm":
		return 1
	case strings.HasPrefix(filepath.ToSlash(rel), "segments/"):
		return 2
	}
	return 3
}
