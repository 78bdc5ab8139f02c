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

// TestTermCounts_MatchesTokenize checks the allocation-free ASCII scan
// against the reference tokenizer, on ASCII and non-ASCII content.
func TestTermCounts_MatchesTokenize(t *testing.T) {
	contents := []string{
		"", "lease", "Lease, LEASE lease-renewal; leases lease.",
		"foo_bar foo\tbar\nFOO42 42foo 42", "C++ c# ai-memory AI_MEMORY",
		"Café-au-lait, naïve CAFE café", "日本語 lease 日本語lease", "  --  ",
	}
	terms := [][]string{{"lease"}, {"foo", "bar", "42"}, {"c", "ai", "memory"}, {"cafe", "naive", "lait"}, {"lease", "日本語"}}
	for _, c := range contents {
		for _, ts := range terms {
			got, n := termCounts(c, ts)
			toks := Tokens(c)
			want := make([]int, len(ts))
			for _, tok := range toks {
				for j, term := range ts {
					if tok == term {
						want[j]++
					}
				}
			}
			if n != len(toks) || !reflect.DeepEqual(got, want) {
				t.Errorf("termCounts(%q, %q) = %v, %d tokens; want %v, %d", c, ts, got, n, want, len(toks))
			}
		}
	}
}
