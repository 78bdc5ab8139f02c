package ledger

import "time"

// Link binds a native harness session of one machine to a workstream. Per
// (workstream, harness, machine) at most one link is current: the session
// the next launch on that machine resumes. Another machine cannot resume
// it; it keeps its own link, starts fresh and receives the handoff.
type Link struct {
	WorkstreamID, Harness, NativeSessionID string
	// Machine is the machine id whose harness store holds the session.
	Machine string
	Current bool
	// SourceCursor is the transcript reader's opaque resume position.
	SourceCursor string
	// DeliveryCursor is the highest sequence this session has seen.
	DeliveryCursor       int64
	CreatedAt, UpdatedAt time.Time
}
