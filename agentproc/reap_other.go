//go:build unix && !linux

package agentproc

// waitExited is a no-op where waitid(WNOWAIT) is not available through x/sys; a signal racing
// the child's exit may then reach it just after it was reaped.
func waitExited(int) {}
