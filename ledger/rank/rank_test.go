package rank

import (
	"reflect"
	"slices"
	"strings"
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

// FuzzTokensASCII: the ASCII fast path splits exactly as the rune-by-rune
// rule does.
func FuzzTokensASCII(f *testing.F) {
	f.Add("Foo_bar foo C++ ai-memory 42x Z9")
	f.Add("")
	f.Add("--- ...")
	f.Add("ÉTÉ naïve")
	f.Fuzz(func(t *testing.T, s string) {
		want := strings.FieldsFunc(foldDiacritics(strings.ToLower(s)), func(r rune) bool { return !IsTokenRune(r) })
		if got := Tokens(s); !slices.Equal(got, want) {
			t.Fatalf("Tokens(%q) = %q; want %q", s, got, want)
		}
	})
}

func BenchmarkTokens(b *testing.B) {
	s := strings.Repeat("The Lease renewal of ai-memory's run_flow failed: see launcher/run.go:42 (exit 1). ", 6)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Tokens(s)
	}
}
