// Package ledgersync keeps a run's history safe when the ledger it writes
// to cannot be reached, and brings what was kept back into it.
//
// While an agent runs, a [Guard] stands between the launcher and the
// ledger: when a call fails with ledger.ErrUnavailable it prints one
// notice, keeps every batch (and the run's session, link and finish) in a
// journal in the data home (<home>/sync/journal-<run>.jsonl, one fsynced
// line per record), retries quietly, and replays the journal, in order,
// as soon as the ledger answers again, at the end of the run, or when the
// user runs `ai-memory ledger sync`. A run started with --offline writes
// to the data home's own SQLite ledger and leaves a note
// (<home>/sync/offline-<run>.json) so that `ledger sync` copies it into
// the shared ledger later; `ledger push` copies a whole local ledger.
//
// Replays are safe to repeat: event ids are deterministic and Append
// skips ids it already stored, so a batch sent twice is stored once.
package ledgersync
