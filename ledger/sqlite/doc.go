// Package sqlite is the default ledger backend: one SQLite file
// (modernc.org/sqlite, WAL) in the data home plus immutable segments, one
// zstd JSONL file per appended batch of events, and a state snapshot per
// workstream (links, cursors, runs) rewritten as it changes, so the whole
// ledger can be rebuilt from the segments alone.
//
// It registers itself as the "sqlite" scheme, the default of ledger.Open
// (a location without a scheme). Everything SQL lives here: the dialect in
// the sqlite_*.go files and migrations/, FTS5, SQLite error-code mapping,
// file creation. Callers outside tests hold a ledger.Ledger, never a *DB.
package sqlite
