package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/ai-memory/ai-memory/ledger"
)

// Health reports the server ledger: schema, the database's size, this data
// home's segments and the live leases (on the server's clock). A server's
// integrity is its own business (PostgreSQL checksums, amcheck): no
// integrity check runs here. Unwritable is set when this role may not
// write the ledger's tables.
func (db *DB) Health(ctx context.Context, _ ledger.HealthOptions) (ledger.Health, error) {
	h := ledger.Health{Location: db.Location(), Schema: db.schema, KnownSchema: KnownSchemaVersion(),
		Integrity: ledger.Integrity{Check: "none (server)", Complete: true}}
	var size int64
	var writable bool
	err := db.pool.QueryRow(ctx, `SELECT pg_database_size(current_database()), has_table_privilege('events', 'INSERT')`).Scan(&size, &writable)
	if err != nil {
		return h, db.wrap(err, "check ledger")
	}
	if !writable {
		h.Unwritable = errors.New("this PostgreSQL role may not insert into the ledger's tables; grant it INSERT, UPDATE on them")
	}
	segs, other, err := homeSizes(db.home)
	if err != nil {
		return h, err
	}
	h.Sizes = []ledger.SizePart{{Name: "ledger", Bytes: size}, {Name: "segments", Bytes: segs}, {Name: "other", Bytes: other}}
	h.Leases, err = db.liveLeases(ctx)
	return h, err
}

func (db *DB) liveLeases(ctx context.Context) ([]ledger.Lease, error) {
	now, err := db.serverNow(ctx)
	if err != nil {
		return nil, db.wrap(err, "list leases")
	}
	rows, err := db.pool.Query(ctx, sqlLiveLeases, now)
	if err != nil {
		return nil, db.wrap(err, "list leases")
	}
	defer rows.Close()
	here := db.here()
	var out []ledger.Lease
	for rows.Next() {
		var l ledger.Lease
		var start, machine string
		var until int64
		if err := rows.Scan(&l.Harness, &l.WorkstreamID, &l.Host, &l.PID, &start, &machine, &until); err != nil {
			return nil, db.wrap(err, "list leases")
		}
		o := ledger.Owner{Machine: machine, Host: l.Host, PID: l.PID, StartTime: start}
		l.Until = fromMicro(until)
		l.Stale = ledger.SameMachine(o, here) && !db.ProcessAlive(o)
		out = append(out, l)
	}
	return out, db.wrap(rows.Err(), "list leases")
}

// homeSizes sums the data home: its segments and everything else.
func homeSizes(home string) (segs, other int64, err error) {
	err = filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if rel, _ := filepath.Rel(home, p); len(rel) > 9 && filepath.ToSlash(rel)[:9] == "segments/" {
			segs += info.Size()
		} else {
			other += info.Size()
		}
		return nil
	})
	if err != nil {
		err = fmt.Errorf("measure data home %s: %w", home, err)
	}
	return segs, other, err
}
