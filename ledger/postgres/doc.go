// Package postgres is the ledger on a PostgreSQL server (jackc/pgx/v5),
// registered for postgres:// and postgresql:// locations: one ledger that
// several machines and people share (docs/shared-ledger.md). The data home
// stays local: run directories, and the segments and state snapshots of
// ledger/durable for what this machine wrote.
//
// Time is the server's (now()), never a client's: clocks differ between
// machines, and a lease must lapse at the same moment for all of them.
// Writers of one workstream are serialised by a row lock on it (SELECT …
// FOR UPDATE), so sequences stay dense and per-workstream under concurrent
// writers, and a partial unique index keeps one active run per workstream.
// Search indexes a tsvector built in Go with ledger/rank's tokenizer, so the
// same query finds the same events as on SQLite, ranked the same way.
package postgres
