package ledger

// Search limits.
const (
	DefaultSearchLimit = 20
	MaxSearchLimit     = 100
	// SearchCandidates bounds ranking to the newest matches of the
	// workstream, which keeps any 2-word query fast at 1M events.
	SearchCandidates = 2000
)
