package ledger

import "time"

// LeaseDuration is how long a lease lasts without renewal. The launcher
// renews it every 30 s (a third of it), so one or two missed heartbeats
// are tolerated. Expiry is measured on the ledger's clock, never a
// client's. Where.Lease shortens it for tests.
const LeaseDuration = 90 * time.Second

// Owner identifies the process holding a lease. StartTime is an opaque
// process-start identity ("" when unknown) that detects pid reuse. Machine
// is set by the ledger to its own Machine when a lease is acquired.
type Owner struct {
	Machine   string
	Host      string
	PID       int
	StartTime string
}

// RunState is the lifecycle state of a run.
type RunState string

// Run states. Only an active run holds the workstream's lease.
const (
	RunActive      RunState = "active"
	RunFinished    RunState = "finished"
	RunExpired     RunState = "expired"     // lease lapsed without renewal
	RunInterrupted RunState = "interrupted" // cancelled, or its process died
)

// Ended reports whether s is a state a run ends in.
func (s RunState) Ended() bool {
	return s == RunFinished || s == RunExpired || s == RunInterrupted
}

// Run is one launch of a harness in a workstream.
type Run struct {
	ID, WorkstreamID, Harness, NativeSessionID string
	State                                      RunState
	ExitCode                                   *int
	StartedAt                                  time.Time
	EndedAt                                    *time.Time
	LeaseExpiresAt                             time.Time
	Owner                                      Owner
	SyncAfter, SyncThrough                     int64
	ContextDelivered                           bool
}
