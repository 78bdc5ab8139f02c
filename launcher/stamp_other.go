//go:build !unix

package launcher

// fileStamp has no file identity to offer here: a mapping is then reused
// as long as its path is a checkout of a repository.
func fileStamp(string) string { return "" }
