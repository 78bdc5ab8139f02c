package ledger

// CursorUpdate is the transcript reader position stored with a batch.
type CursorUpdate struct {
	Harness, NativeSessionID, SourceCursor string
}

// Batch is one atomic append to a workstream.
type Batch struct {
	WorkstreamID, RunID string
	Events              []EventInput
	// Cursor, when set, is stored on the (workstream, harness, session) link
	// in the same transaction, so events and cursor never disagree.
	Cursor *CursorUpdate
}

// AppendResult says what an Append did. Added + Skipped + Dropped equals
// the number of input events.
type AppendResult struct {
	Added, Skipped int
	// Dropped counts events whose redacted content was empty.
	Dropped      int
	LastSequence int64
	SegmentPath  string // "" when nothing was added
}
