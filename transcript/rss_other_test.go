//go:build !unix

package transcript

func peakRSSMB() (float64, bool) { return 0, false }
