package ledger

// WorkstreamSummary is one row of a workstream listing.
type WorkstreamSummary struct {
	Workstream
	// Selected marks the scope's current (most recently selected) workstream.
	Selected bool
	// LastHarness is the harness of the newest run ("" when none ran yet).
	LastHarness string
	// Harnesses lists every harness that ran or was linked, sorted.
	Harnesses []string
	// Events counts the stored events.
	Events int64
}
