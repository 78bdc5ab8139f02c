//go:build !linux && !darwin

package ledger

// processStartTime is unknown on this platform; pid reuse then goes
// undetected and only lease expiry reclaims a lease.
func processStartTime(pid int) string { return "" }
