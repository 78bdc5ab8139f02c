package ledger

// Search limits.
const (
	DefaultSearchLimit = 20
	MaxSearchLimit     = 100
	// SearchCandidates bounds ranking to the newest matches of the
	// workstream, which keeps any 2-word query fast at 1M events.
	SearchCandidates = 2000
)

// ClampSearchLimit is the limit every backend's Search applies: 0 means
// DefaultSearchLimit, and the rest is clamped to 1..MaxSearchLimit.
func ClampSearchLimit(limit int) int {
	switch {
	case limit == 0:
		return DefaultSearchLimit
	case limit < 1:
		return 1
	case limit > MaxSearchLimit:
		return MaxSearchLimit
	}
	return limit
}
