//go:build !unix

package launcher

func peakRSSMB() (float64, bool) { return 0, false }
