package ledger

import "time"

// Link binds a native harness session to a workstream. Per (workstream,
// harness) at most one link is current: the session the next launch resumes.
type Link struct {
	WorkstreamID, Harness, NativeSessionID string
	Current                                bool
	// SourceCursor is the transcript reader's opaque resume position.
	SourceCursor string
	// DeliveryCursor is the highest sequence this session has seen.
	DeliveryCursor       int64
	CreatedAt, UpdatedAt time.Time
}
