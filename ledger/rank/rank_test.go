package rank

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
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

// FuzzTokens: both of Tokens' paths (ASCII by table; any text in one pass
// per rune) split exactly as lower-casing, folding and splitting the whole
// string does.
func FuzzTokens(f *testing.F) {
	f.Add("Foo_bar foo C++ ai-memory 42x Z9")
	f.Add("")
	f.Add("--- ...")
	f.Add("ÉTÉ naïve")
	f.Add("e\u0301t \u212a → résumé ÀB\xff\xfeĲ ǅ")
	f.Fuzz(func(t *testing.T, s string) {
		want := strings.FieldsFunc(foldDiacritics(strings.ToLower(s)), func(r rune) bool { return !IsTokenRune(r) })
		if got := Tokens(s); !slices.Equal(got, want) {
			t.Fatalf("Tokens(%q) = %q; want %q", s, got, want)
		}
	})
}

func BenchmarkTokens(b *testing.B) {
	line := "The Lease renewal of ai-memory's run_flow failed: see launcher/run.go:42 (exit 1). "
	for _, bc := range []struct{ name, s string }{
		{"ascii", strings.Repeat(line, 6)},
		{"one-arrow", strings.Repeat(line, 3) + "→ " + strings.Repeat(line, 3)}, // tool output often has one
		{"accented", strings.Repeat("Le café est très naïf, l'été à Zürich. ", 12)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.s)))
			for b.Loop() {
				Tokens(bc.s)
			}
		})
	}
}

// foldDiacritics is the reference of Tokens' folding, a string at a time:
// common Latin letters with diacritics to their base letter (like
// remove_diacritics), combining marks removed, other runes unchanged.
func foldDiacritics(s string) string {
	if isASCII(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if b, ok := latinFold[r]; ok {
			return b
		}
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, s)
}
