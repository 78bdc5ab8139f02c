package rank

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/ledger/internal/benchgen"
)

// countCorpus mixes what the ranker meets: plain ASCII, case and
// punctuation, diacritics (precomposed and combining), other scripts, CJK,
// private use, tokens that change script midway, invalid UTF-8.
var countCorpus = []string{
	"", "lease", "  --  ", "Lease, LEASE lease-renewal; leases lease.",
	"foo_bar foo\tbar\nFOO42 42foo 42", "C++ c# ai-memory AI_MEMORY ai.memory",
	"Café-au-lait, naïve CAFE café cafe\u0301 NAÏVE", "e\u0301te\u0301 ÉTÉ ete",
	"日本語 lease 日本語lease lease日本語", "Straße STRASSE strasse", "İstanbul istanbul ıstanbul",
	"Ωmega ωmega ΣΊΣΥΦΟΣ σίσυφος", "\ue000lease \ue000", "K kelvin \u212aelvin", "① ½ ٣ 3",
	"lease\xffrenewal lease\xc3", "ząb ŻUBR żubr zubr", "tab\there\r\nnew line", "naïve\u200bword",
	strings.Repeat("lease renewal ", 50),
}

var countTerms = [][]string{
	{"lease"}, {"foo", "bar", "42"}, {"c", "ai", "memory"}, {"cafe", "naive", "lait"},
	{"lease", "日本語"}, {"ete"}, {"strasse", "straße"}, {"istanbul", "i"}, {"ωmega", "σισυφος"},
	{"kelvin"}, {"3", "½", "①"}, {"renewal"}, {"zubr", "zab"}, {"here", "tab"}, {"naive", "word"},
}

// tokensCounts is the definition count must meet: Tokens, then compare.
func tokensCounts(content string, terms []string) ([]int, int) {
	toks := Tokens(content)
	counts := make([]int, len(terms))
	for _, tok := range toks {
		for j, t := range terms {
			if tok == t {
				counts[j]++
			}
		}
	}
	return counts, len(toks)
}

// termCountsBefore is the implementation count replaced (an ASCII scan
// with a per-byte range test, Tokens for anything else), kept to show
// the results did not change and to benchmark against.
func termCountsBefore(content string, terms []string) ([]int, int) {
	counts := make([]int, len(terms))
	if !isASCII(content) {
		return tokensCounts(content, terms)
	}
	isTok := func(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	n := 0
	for i := 0; i < len(content); {
		if !isTok(content[i]) {
			i++
			continue
		}
		start := i
		for i < len(content) && isTok(content[i]) {
			i++
		}
		n++
		for j, t := range terms {
			if len(t) == i-start && equalLowerBefore(content[start:i], t) {
				counts[j]++
			}
		}
	}
	return counts, n
}

func equalLowerBefore(tok, term string) bool {
	for k := 0; k < len(tok); k++ {
		c := tok[k]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != term[k] {
			return false
		}
	}
	return true
}

func TestCount_MatchesTokensAndBefore(t *testing.T) {
	for _, c := range countCorpus {
		for _, ts := range countTerms {
			checkCount(t, c, ts)
		}
	}
}

// FuzzCount checks count against Tokens on arbitrary content (the seed
// corpus runs with every go test).
func FuzzCount(f *testing.F) {
	for _, c := range countCorpus {
		f.Add(c, "lease cafe 日本語")
	}
	f.Fuzz(func(t *testing.T, content, query string) {
		if ts := Terms(query); len(ts) > 0 {
			checkCount(t, content, ts)
		}
	})
}

func checkCount(t *testing.T, content string, terms []string) {
	t.Helper()
	want, wantN := tokensCounts(content, terms)
	before, beforeN := termCountsBefore(content, terms)
	tc := newTermCounter(terms)
	got := make([]int, len(terms))
	for round := 0; round < 2; round++ { // the scratch token must not leak between contents
		clear(got)
		n := tc.count(content, got)
		if n != wantN || !reflect.DeepEqual(got, want) {
			t.Fatalf("count(%q, %q) = %v, %d tokens; Tokens says %v, %d", content, terms, got, n, want, wantN)
		}
	}
	if beforeN != wantN || !reflect.DeepEqual(before, want) {
		t.Fatalf("termCountsBefore(%q, %q) = %v, %d; Tokens says %v, %d", content, terms, before, beforeN, want, wantN)
	}
}

// TestRank_SameAsBefore ranks a generated corpus with many ties (short
// contents of common words) against ranking with termCountsBefore.
func TestRank_SameAsBefore(t *testing.T) {
	g := benchgen.New(7)
	for _, avg := range []int{10, 60, 500} {
		cands := benchCandidates(g, 2000, avg)
		for _, q := range []string{g.Word(0) + " " + g.Word(1), g.Word(3), g.Pair(5, 50), g.Pair(50, 500) + " " + g.Word(2)} {
			for _, limit := range []int{1, 20, 100} {
				want := rankBefore(cands, q, limit)
				if got := Rank(cands, q, limit); !reflect.DeepEqual(got, want) {
					t.Errorf("avg %d, Rank(%q, %d) = %v; before %v", avg, q, limit, got, want)
				}
				// A backend counts each content from one reused buffer,
				// overwritten by the next row: nothing of it may be kept.
				r, buf := NewRanker(q), []byte(nil)
				for _, c := range cands {
					buf = append(buf[:0], c.Content...)
					r.AddBytes(c.Key, buf)
					for i := range buf {
						buf[i] = 'x'
					}
				}
				if got := r.Top(limit); r.Len() != len(cands) || !reflect.DeepEqual(got, want) {
					t.Errorf("avg %d, Ranker(%q).Top(%d) from a reused buffer = %v; before %v", avg, q, limit, got, want)
				}
			}
		}
	}
}

// rankBefore is Rank as it was, on termCountsBefore.
func rankBefore(cands []Candidate, query string, limit int) []int64 {
	terms := Terms(query)
	scores := make([]float64, len(cands))
	lens := make([]int, len(cands))
	tfs := make([][]int, len(cands))
	total := 0
	for i, c := range cands {
		tfs[i], lens[i] = termCountsBefore(c.Content, terms)
		total += lens[i]
	}
	avg := float64(total)/float64(len(cands)) + 1e-9
	for i := range cands {
		for _, n := range tfs[i] {
			tf := float64(n)
			scores[i] += tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(lens[i])/avg))
		}
	}
	idx := make([]int, len(cands))
	for i := range idx {
		idx[i] = i
	}
	sortStableDesc(idx, scores)
	out := []int64{}
	for _, i := range idx[:min(limit, len(idx))] {
		out = append(out, cands[i].Key)
	}
	return out
}

func sortStableDesc(idx []int, scores []float64) {
	for i := 1; i < len(idx); i++ { // insertion sort: stable and obviously so
		for j := i; j > 0 && scores[idx[j]] > scores[idx[j-1]]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
}

// benchCandidates are n generated contents of about avg bytes, newest
// (highest key) first.
func benchCandidates(g *benchgen.Gen, n, avg int) []Candidate {
	cands := make([]Candidate, n)
	for i := range cands {
		cands[i] = Candidate{Key: int64(n - i), Content: g.Content(avg)}
	}
	return cands
}

// BenchmarkTermCounts tokenizes candidates of ~500 B for a 2-word query
// (200 of them: a search ranks 2,000, but 1 MB would measure the machine's
// cache more than the scan).
func BenchmarkTermCounts(b *testing.B) {
	g := benchgen.New(1)
	cands := benchCandidates(g, 200, 500)
	terms := Terms(g.Pair(50, 500))
	b.Run("before", func(b *testing.B) {
		b.SetBytes(contentBytes(cands))
		for b.Loop() {
			for _, c := range cands {
				termCountsBefore(c.Content, terms)
			}
		}
	})
	b.Run("now", func(b *testing.B) {
		b.SetBytes(contentBytes(cands))
		tc := newTermCounter(terms)
		counts := make([]int, len(terms))
		for b.Loop() {
			for _, c := range cands {
				clear(counts)
				tc.count(c.Content, counts)
			}
		}
	})
	for _, s := range []string{"Latin-1", "CJK"} {
		b.Run(s, func(b *testing.B) {
			uc := make([]Candidate, len(cands))
			for i, c := range cands {
				uc[i] = c
				uc[i].Content = map[string]string{"Latin-1": "café ", "CJK": "日本語 "}[s] + c.Content
			}
			b.SetBytes(contentBytes(uc))
			tc := newTermCounter(terms)
			counts := make([]int, len(terms))
			for b.Loop() {
				for _, c := range uc {
					clear(counts)
					tc.count(c.Content, counts)
				}
			}
		})
		b.Run(s+"-before", func(b *testing.B) {
			uc := make([]Candidate, len(cands))
			for i, c := range cands {
				uc[i] = c
				uc[i].Content = map[string]string{"Latin-1": "café ", "CJK": "日本語 "}[s] + c.Content
			}
			b.SetBytes(contentBytes(uc))
			for b.Loop() {
				for _, c := range uc {
					termCountsBefore(c.Content, terms)
				}
			}
		})
	}
}

func BenchmarkRank(b *testing.B) {
	g := benchgen.New(1)
	cands := benchCandidates(g, 2000, 500)
	q := g.Pair(50, 500)
	for b.Loop() {
		Rank(cands, q, 20)
	}
}

func contentBytes(cands []Candidate) int64 {
	n := 0
	for _, c := range cands {
		n += len(c.Content)
	}
	return int64(n)
}
