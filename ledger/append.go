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
	// Prepared is set by the ledger's Prepare (see Preparer) and opaque to
	// everyone else: the batch's events redacted, identified and encoded
	// ahead of its Append, which then stores those. A value the ledger did
	// not make itself is ignored.
	Prepared any `json:"-"`
}

// Preparer is a Ledger that can do the part of an Append that does not
// depend on what the ledger holds (redaction, event ids, the stored and
// indexed forms of the text) ahead of time, on the caller's goroutine: an
// importer prepares batch N+1 while batch N is written. Prepare returns b
// with Prepared set; the Append of that batch stores what was prepared
// (so Events changed after Prepare are not seen) and skips that work.
type Preparer interface {
	Prepare(b Batch) Batch
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
