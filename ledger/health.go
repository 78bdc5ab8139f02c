package ledger

import "time"

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
