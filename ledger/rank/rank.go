// Package rank is the search ranking every ledger backend shares: one
// tokenizer (the rules of SQLite FTS5's unicode61 with remove_diacritics:
// letters, digits and private-use code points, lower-cased, common Latin
// diacritics folded), and BM25 ordering of a backend's newest candidate
// matches. A backend indexes and matches with Tokens, so the same query
// finds the same events on every backend, and ranks with Rank, so they come
// back in the same order.
package rank

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Candidate is one match to rank: a backend's key for the event (a rowid,
// a sequence) and its stored content.
type Candidate struct {
	Key     int64
	Content string
}

// BM25 parameters (the usual defaults).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Rank orders candidates by BM25 term-frequency saturation with
// length normalisation and returns the best limit keys (newer first on a
// tie). IDF is left out on purpose: every candidate matched every term (the
// query is an AND), so within the candidate set each term's IDF is the same
// constant and cannot change the order.
func Rank(cands []Candidate, query string, limit int) []int64 {
	r := NewRanker(query)
	for _, c := range cands {
		r.Add(c.Key, c.Content)
	}
	return r.Top(limit)
}

// Ranker is Rank for candidates as a backend reads them, newest first: it
// keeps each candidate's term counts and length, not its content. A search
// reads up to ledger.SearchCandidates contents; holding them all until the
// ranking (a megabyte or more) was most of what a CLI search allocated, in
// a process whose every new heap page costs a page fault.
type Ranker struct {
	tc   *termCounter // nil when the query has no terms
	n    int          // terms
	keys []int64
	lens []int
	tfs  []int // n counts per candidate, in one slice
}

// NewRanker ranks candidates against query's terms.
func NewRanker(query string) *Ranker {
	terms := Terms(query)
	r := &Ranker{n: len(terms)}
	if len(terms) > 0 {
		r.tc = newTermCounter(terms)
	}
	return r
}

// Add counts one candidate, the next newest after those added before.
// content is not retained.
func (r *Ranker) Add(key int64, content string) {
	r.keys = append(r.keys, key)
	if r.tc == nil {
		return
	}
	i := len(r.tfs)
	for range r.n {
		r.tfs = append(r.tfs, 0)
	}
	r.lens = append(r.lens, r.tc.count(content, r.tfs[i:i+r.n]))
}

// AddBytes is Add for content in a buffer the caller reuses: it is read
// during the call only.
func (r *Ranker) AddBytes(key int64, content []byte) {
	r.Add(key, unsafe.String(unsafe.SliceData(content), len(content)))
}

// Len is the number of candidates added.
func (r *Ranker) Len() int { return len(r.keys) }

// Top returns the best limit keys, newer first on a tie.
func (r *Ranker) Top(limit int) []int64 {
	if len(r.keys) == 0 || r.tc == nil {
		return nil
	}
	total := 0
	for _, n := range r.lens {
		total += n
	}
	avg := float64(total)/float64(len(r.keys)) + 1e-9
	scores := make([]float64, len(r.keys))
	for i := range r.keys {
		for _, n := range r.tfs[i*r.n : (i+1)*r.n] {
			tf := float64(n)
			scores[i] += tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(r.lens[i])/avg))
		}
	}
	idx := make([]int, len(r.keys))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] }) // added newest first
	out := make([]int64, 0, min(limit, len(idx)))
	for _, i := range idx[:min(limit, len(idx))] {
		out = append(out, r.keys[i])
	}
	return out
}

// Terms are the distinct tokens of a query, in order of first appearance.
func Terms(query string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range Tokens(query) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// Tokens splits s the way the unicode61 tokenizer does (letters, digits,
// private use; anything else separates), lower-cased and without
// diacritics: "foo_bar" is foo, bar and "C++" is c.
func Tokens(s string) []string {
	if toks, ok := asciiTokens(s); ok {
		return toks
	}
	return runeTokens(s)
}

// runeTokens is Tokens of any s in one pass, per rune what Tokens says per
// string (as countRunes does): ASCII by table, other runes lower-cased and
// folded (foldRune), a combining mark dropped so that it joins what
// surrounds it, anything else not a token rune a separator. A text with
// one arrow or accented letter in it is common in transcripts (tool
// output), and lower-casing, folding and splitting it as three passes over
// the string, with a map lookup per rune, was most of the cost of building
// PostgreSQL's search documents. The tokens share one allocation.
func runeTokens(s string) []string {
	buf := make([]byte, 0, len(s))
	var ends []int
	in := false
	for _, r := range s {
		if r < utf8.RuneSelf {
			if c := asciiClass[r]; c != 0 {
				buf, in = append(buf, c), true
				continue
			}
		} else if r = foldRune(r); r < 0 {
			continue
		} else if IsTokenRune(r) {
			buf, in = utf8.AppendRune(buf, r), true
			continue
		}
		if in {
			ends, in = append(ends, len(buf)), false
		}
	}
	if in {
		ends = append(ends, len(buf))
	}
	all := string(buf)
	toks := make([]string, len(ends))
	start := 0
	for i, e := range ends {
		toks[i], start = all[start:e], e
	}
	return toks
}

// asciiTokens is Tokens of an ASCII s (nearly all content), a table lookup
// per byte instead of a Unicode class test per rune: building the
// PostgreSQL search documents tokenises every imported event. ok is false
// when s holds a byte from 0x80.
func asciiTokens(s string) (toks []string, ok bool) {
	if !isASCII(s) {
		return nil, false
	}
	s = strings.ToLower(s) // s itself when it has no upper case
	toks = make([]string, 0, len(s)/6+1)
	start := -1
	for i := 0; i < len(s); i++ {
		switch {
		case isTokenByte[s[i]] == 1:
			if start < 0 {
				start = i
			}
		case start >= 0:
			toks = append(toks, s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		toks = append(toks, s[start:])
	}
	return toks, true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

var latinFold = func() map[rune]rune {
	m := map[rune]rune{}
	for base, list := range map[rune]string{
		'a': "àáâãäåā", 'c': "çćč", 'e': "èéêëēėę", 'i': "ìíîïī", 'n': "ñń",
		'o': "òóôõöøō", 'u': "ùúûüū", 'y': "ýÿ", 's': "śš", 'z': "źżž",
	} {
		for _, r := range list {
			m[r] = base
		}
	}
	return m
}()

// IsTokenRune mirrors unicode61's token characters: letters, numbers and
// private-use code points.
func IsTokenRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r)
}
