package ledger

import "testing"

func TestParseStatStartTime(t *testing.T) {
	tests := []struct{ stat, want string }{
		{"1234 (bash) S 1 1234 1234 34816 1234 4194304 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 200 18446744073709551615", "987654"},
		{"99 (we ird) (name)) R 1 99 99 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 55 1 1", "55"},
		{"99 (zombie) Z 1 99 99 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 55 1 1", ""},
		{"99 (short) R 1 2", ""},
		{"garbage", ""},
	}
	for _, tt := range tests {
		if got := parseStatStartTime(tt.stat); got != tt.want {
			t.Errorf("parseStatStartTime(%q) = %q; want %q", tt.stat, got, tt.want)
		}
	}
}
