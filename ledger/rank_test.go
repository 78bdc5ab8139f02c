package ledger

import (
	"reflect"
	"testing"
)

func TestRankCandidates(t *testing.T) {
	cands := []candidate{ // newest first, as the FTS query returns them
		{rid: 9, content: "lease mentioned once in a long paragraph with many other unrelated words around it"},
		{rid: 8, content: "lease renewal lease renewal lease"},
		{rid: 7, content: "Lease renewal"},
		{rid: 6, content: "lease mentioned once in a long paragraph with many other unrelated words around it"},
	}
	tests := []struct {
		query string
		limit int
		want  []int64
	}{
		{"lease", 10, []int64{8, 7, 9, 6}},
		{"lease renewal", 2, []int64{8, 7}},
		{"LEASE", 1, []int64{8}},
		{"*", 5, nil},
	}
	for _, tt := range tests {
		if got := rankCandidates(cands, tt.query, tt.limit); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("rankCandidates(%q, %d) = %v; want %v", tt.query, tt.limit, got, tt.want)
		}
	}
}

func TestTokenizeFoldsLikeUnicode61(t *testing.T) {
	got := tokenize("Café-au-lait, naïve C++ foo.bar ÉTÉ")
	want := []string{"cafe", "au", "lait", "naive", "c", "foo", "bar", "ete"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tokenize = %q; want %q", got, want)
	}
}
