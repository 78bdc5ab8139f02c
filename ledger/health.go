package ledger

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Health is what `ai-memory doctor` reports about a ledger. It is the
// contract a storage backend fills: a file backend names its file, a
// server backend its address; checks a backend cannot make stay zero.
type Health struct {
	// Location is the ledger file, or the server a backend talks to.
	Location string
	// Schema is the ledger's schema version, KnownSchema this binary's.
	Schema, KnownSchema int
	Integrity           Integrity
	// Sizes is the disk use of the whole data home, by part.
	Sizes []SizePart
	// Leases are the unexpired leases: the launchers running now.
	Leases []Lease
	// Unwritable says why this process could not write the ledger (every
	// command that records needs to); nil when it can.
	Unwritable error
}

// Integrity is the outcome of the storage's own consistency check.
type Integrity struct {
	// Check names what ran: "integrity_check" or "quick_check".
	Check string
	// Complete is false when the time budget ran out before the end.
	Complete bool
	// Problems are the first problems found (none: the check passed).
	Problems []string
	Took     time.Duration
}

// SizePart is the size of one part of the data home.
type SizePart struct {
	Name  string // "ledger", "wal", "segments", "other"
	Bytes int64
}

// Lease is one unexpired lease: a launcher holding a workstream.
type Lease struct {
	Harness, WorkstreamID, Host string
	PID                         int
	Until                       time.Time
	// Stale means the owner ran on this host and its process is gone: the
	// next launcher of the workstream takes the lease over at once.
	Stale bool
}

// HealthOptions bounds the checks. The zero value gives the defaults.
type HealthOptions struct {
	// IntegrityBudget bounds the integrity check (default 10 s).
	IntegrityBudget time.Duration
	// QuickCheckAbove is the ledger size above which the O(N) quick_check
	// replaces the full integrity_check, which also cross-checks every
	// index against its table (default 256 MiB).
	QuickCheckAbove int64
}

const (
	defaultIntegrityBudget = 10 * time.Second
	defaultQuickCheckAbove = 256 << 20
	maxIntegrityProblems   = 10
)

// OpenForCheck opens an existing ledger for inspection only: no migration,
// no snapshot, and a query-only connection, so a check never changes the
// ledger, whatever its schema version. It fails when home has no ledger.
func OpenForCheck(ctx context.Context, home string) (*DB, error) {
	path := filepath.Join(home, "ledger.db")
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open ledger %s: %w", path, err)
	}
	db := &DB{Now: time.Now, ProcessAlive: processAlive, home: home, path: path, busy: DefaultBusyTimeout, segFS: osFS{}}
	var err error
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
func (db *DB) Health(ctx context.Context, opt HealthOptions) (Health, error) {
	h := Health{Location: db.path, Schema: db.schema, KnownSchema: KnownSchemaVersion(), Unwritable: checkWritable(db.path)}
	var err error
	if h.Sizes, err = homeSizes(db.home); err != nil {
		return h, err
	}
	h.Integrity = db.integrity(ctx, opt, h.Sizes[0].Bytes)
	h.Leases, err = db.liveLeases(ctx)
	return h, err
}

// integrity runs integrity_check, or quick_check on a big file, within the
// budget; SQLite stops at the deadline (the driver interrupts it).
func (db *DB) integrity(ctx context.Context, opt HealthOptions, size int64) Integrity {
	budget, above := opt.IntegrityBudget, opt.QuickCheckAbove
	if budget <= 0 {
		budget = defaultIntegrityBudget
	}
	if above <= 0 {
		above = defaultQuickCheckAbove
	}
	in := Integrity{Check: "integrity_check"}
	if size > above {
		in.Check = "quick_check"
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	msgs, err := db.pragmaLines(ctx, fmt.Sprintf("PRAGMA %s(%d)", in.Check, maxIntegrityProblems))
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

// pragmaLines runs a pragma that returns one text column per row.
func (db *DB) pragmaLines(ctx context.Context, q string) ([]string, error) {
	rows, err := db.sql.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return out, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// liveLeases lists the active runs whose lease has not expired, marking
// those of this host whose process is gone.
func (db *DB) liveLeases(ctx context.Context) ([]Lease, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+runColumns+` FROM runs WHERE state = 'active' AND lease_expires_at > ? ORDER BY started_at`, db.nowMicro())
	if err != nil {
		return nil, db.wrap(err, "list leases")
	}
	defer rows.Close()
	host := CurrentOwner().Host
	var out []Lease
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, db.wrap(err, "list leases")
		}
		out = append(out, Lease{Harness: r.Harness, WorkstreamID: r.WorkstreamID, Host: r.Owner.Host, PID: r.Owner.PID,
			Until: r.LeaseExpiresAt, Stale: r.Owner.Host == host && !db.ProcessAlive(r.Owner)})
	}
	return out, db.wrap(rows.Err(), "list leases")
}

// homeSizes sums the data home by part; the ledger file comes first.
func homeSizes(home string) ([]SizePart, error) {
	parts := []SizePart{{Name: "ledger"}, {Name: "wal"}, {Name: "segments"}, {Name: "other"}}
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
