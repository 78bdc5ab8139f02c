// Package ledger is the Go API of ai-memory's store: workstreams, runs and
// their single-writer leases, native-session links and cursors, and the
// append-only event history with a full-text index.
//
// [Ledger] is the interface every caller holds; the types it exchanges, its
// errors and the rules all backends share (deterministic event ids,
// redaction before storage through [redact.String], conversation order,
// name validation, lease owners) live here. Backends register a [Driver]
// (database/sql style) and [Open] picks one by the location's scheme: the
// default, ledger/sqlite, keeps the ledger in one SQLite file in the data
// home. This package imports no database driver. docs/ledger.md, "Backends",
// says how a backend is added; ledger/ledgertest is the conformance suite
// every backend passes.
package ledger
