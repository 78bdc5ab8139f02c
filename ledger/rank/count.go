package rank

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// termCounter counts a query's terms in candidates' contents, tokenizing
// exactly as Tokens does but without building the token list: ranking
// tokenizes ~2,000 candidates of ~500 B per search, which was a fifth of a
// search's CPU time. Not safe for concurrent use (tok is scratch space).
type termCounter struct {
	terms []string // lower-case and folded, as Terms returns them
	bytes [][]byte // terms as bytes, for bytes.Index
	tok   []byte   // the current token of a non-ASCII content, reused
	lower []byte   // content folded by foldASCII, reused
}

func newTermCounter(terms []string) *termCounter {
	tc := &termCounter{terms: terms, bytes: make([][]byte, len(terms))}
	for j, t := range terms {
		tc.bytes[j] = []byte(t)
	}
	return tc
}

// asciiClass maps a byte below 0x80 to its lower case when it is a token
// character (a letter or a digit) and to 0 when it separates tokens; every
// byte from 0x80 maps to nonASCII.
var asciiClass = func() (t [256]byte) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 0x80:
			t[c] = nonASCII
		case c >= 'A' && c <= 'Z':
			t[c] = byte(c) + 'a' - 'A'
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			t[c] = byte(c)
		}
	}
	return t
}()

// nonASCII marks a byte that starts or continues a multi-byte rune.
const nonASCII = 0x80

// isTokenByte is 1 for an ASCII letter or digit, else 0.
var isTokenByte = func() (t [256]byte) {
	for c := range t {
		if asciiClass[c] != 0 && asciiClass[c] != nonASCII {
			t[c] = 1
		}
	}
	return t
}()

// count adds the occurrences of each term in content to counts (one per
// term, zero on entry) and returns content's length in tokens. ASCII
// content, nearly all of it, takes the fast path; content with any other
// byte is scanned rune by rune.
func (tc *termCounter) count(content string, counts []int) int {
	if len(content) > cap(tc.lower) {
		tc.lower = make([]byte, 0, max(len(content), 2*cap(tc.lower)))
	}
	low := tc.lower[:len(content)]
	n, high := foldASCII(content, low)
	if high {
		return tc.countRunes(content, counts)
	}
	for j := range tc.terms {
		counts[j] = countTerm(low, tc.bytes[j])
	}
	return n
}

// foldASCII writes content to low with token bytes lower-cased and
// separators as 0, and counts the tokens (a token byte after a separator
// or at the start). It has no data-dependent branch, so the scan runs at
// about a byte a cycle whatever the text; high reports a byte >= 0x80,
// when the scan says nothing.
func foldASCII(content string, low []byte) (n int, high bool) {
	low = low[:len(content)]
	var prev, seen byte
	for i := 0; i < len(content); i++ {
		c := content[i]
		l := asciiClass[c]
		low[i] = l
		tok := isTokenByte[c]
		n += int(tok &^ prev)
		prev = tok
		seen |= c
	}
	return n, seen >= 0x80
}

// countTerm counts the whole-token occurrences of the ASCII term t in the
// folded content low (memchr-speed substring search, then a check that
// separators, which foldASCII made 0, surround the match).
func countTerm(low, t []byte) int {
	n := 0
	for i := 0; ; {
		k := bytes.Index(low[i:], t)
		if k < 0 {
			return n
		}
		p := i + k
		e := p + len(t)
		if (p == 0 || low[p-1] == 0) && (e == len(low) || low[e] == 0) {
			n++
		}
		i = e
	}
}

// countRunes is count for any content: per rune what Tokens does per
// string (lower-case, fold a Latin diacritic, drop a combining mark, split
// on anything that is not a token rune), so the tokens are Tokens' tokens.
// Invalid UTF-8 decodes to U+FFFD, a separator, as in Tokens.
func (tc *termCounter) countRunes(content string, counts []int) int {
	n := 0
	tok := tc.tok[:0]
	for _, r := range content {
		if r < utf8.RuneSelf {
			if c := asciiClass[r]; c != 0 {
				tok = append(tok, c)
				continue
			}
		} else if r = foldRune(r); r < 0 {
			continue // a combining mark is removed, so it joins what surrounds it
		} else if IsTokenRune(r) {
			tok = utf8.AppendRune(tok, r)
			continue
		}
		if len(tok) > 0 {
			n++
			tc.match(tok, counts)
			tok = tok[:0]
		}
	}
	if len(tok) > 0 {
		n++
		tc.match(tok, counts)
	}
	tc.tok = tok
	return n
}

// foldRune is what Tokens does to a non-ASCII rune: lower-case, then fold a
// Latin diacritic; -1 for a combining mark, which Tokens removes.
func foldRune(r rune) rune {
	r = unicode.ToLower(r)
	if b, ok := latinFold[r]; ok {
		return b
	}
	if unicode.Is(unicode.Mn, r) {
		return -1
	}
	return r
}

// match counts the lower-cased, folded token tok against the terms.
func (tc *termCounter) match(tok []byte, counts []int) {
	for j, t := range tc.terms {
		if string(tok) == t {
			counts[j]++
		}
	}
}
