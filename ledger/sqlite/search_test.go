package sqlite

import (
	"testing"
)

func TestQuoteFTS(t *testing.T) {
	tests := map[string]string{
		"":               "",
		"foo":            `"foo"`,
		"ai-memory":      `"ai-memory"`,
		"error: foo":     `"error:" AND "foo"`,
		"foo.bar":        `"foo.bar"`,
		"C++":            `"C++"`,
		`"unbalanced`:    `"""unbalanced"`,
		"NEAR(":          `"NEAR("`,
		"*":              "",
		"a * b":          `"a" AND "b"`,
		"  café   OR ":   `"café" AND "OR"`,
		`say "hi" now`:   `"say" AND """hi""" AND "now"`,
		"col:val AND -x": `"col:val" AND "AND" AND "-x"`,
	}
	for in, want := range tests {
		if got := QuoteFTS(in); got != want {
			t.Errorf("QuoteFTS(%q) = %s; want %s", in, got, want)
		}
	}
}
