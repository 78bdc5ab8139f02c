// Package ledger is the local embedded store of ai-memory: workstreams, runs
// and their single-writer leases, native-session links, and the append-only
// event history with a full-text index.
//
// It is one SQLite file (modernc.org/sqlite, WAL) under the data home plus
// immutable segments: one JSONL file per appended batch of events, and a
// state snapshot per workstream (links, cursors, runs) rewritten as it
// changes, so the whole ledger can be rebuilt from the segments alone. Every content, source record id and metadata string
// passes through [redact.String] before it reaches the database or a segment.
//
// This is the only package that imports the SQLite driver. Dialect-specific
// SQL lives in the sqlite_*.go files and in migrations/, so another backend
// can be added behind the same Go API.
package ledger
