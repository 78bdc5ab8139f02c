package rank

import (
	"reflect"
	"testing"
)

func TestRank(t *testing.T) {
	cands := []Candidate{ // newest first, as the FTS query returns them
		{Key: 9, Content: "lease mentioned once in a long paragraph with many other unrelated words around it"},
		{Key: 8, Content: "lease renewal lease renewal lease"},
		{Key: 7, Content: "Lease renewal"},
		{Key: 6, Content: "lease mentioned once in a long paragraph with many other unrelated words around it"},
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
		if got := Rank(cands, tt.query, tt.limit); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Rank(%q, %d) = %v; want %v", tt.query, tt.limit, got, tt.want)
		}
	}
}

func TestTokenizeFoldsLikeUnicode61(t *testing.T) {
	got := Tokens("Café-au-lait, naïve C++ foo.bar ÉTÉ")
	want := []string{"cafe", "au", "lait", "naive", "c", "foo", "bar", "ete"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tokenize = %q; want %q", got, want)
	}
}
