// Package durable is the durable copy of a ledger, shared by every backend:
// the immutable event segments (one zstd JSONL file per appended batch), the
// per-workstream state snapshots (workstream row, links and cursors, newest
// runs) and what Rebuild replays from them, plus the one way events are
// prepared for storage (validation, redaction, ids, blank drop). A backend
// keeps its database in step with these files; the files alone are enough
// to rebuild it, on any backend. Nothing here knows SQL.
package durable
