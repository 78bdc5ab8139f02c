// Package redact removes secrets from text before it is stored.
//
// The ledger passes every event through [String] before it reaches SQLite or
// an immutable segment, so a credential pasted into a prompt, echoed by a tool
// or printed in a log never becomes searchable history or part of a handoff
// packet. Only structured secrets are recognised (known token prefixes,
// credential-bearing headers, assignments and URLs, private key blocks);
// high-entropy strings without structure are deliberately left alone, because
// hashes, ids and base64 payloads are everywhere in coding transcripts.
//
// Every family is a precompiled RE2 expression (linear time, no catastrophic
// backtracking) guarded by lower-case keywords: an expression only runs on the
// lines that contain one of its keywords, which keeps the common case (text
// without any credential-like word) close to the speed of a substring search.
package redact

import (
	"regexp"
	"slices"
	"strings"
)

// Marker replaces every secret. A secret span that already equals Marker is
// left alone, and its brackets are in no token alphabet, so redacted text
// does not match again: String(String(s)) == String(s).
const Marker = "[REDACTED]"

// String returns s with every recognised secret replaced by [Marker]. The
// non-secret context of a match (a header name, an auth scheme, a variable
// name, the scheme, user and host of a URL) is kept so the text stays
// readable.
func String(s string) string {
	out, _ := Count(s)
	return out
}

// Count is [String] that also reports how many secrets it replaced, so an
// importer can say how much it redacted without showing what.
func Count(s string) (string, int) {
	if s == "" {
		return s, 0
	}
	s, n := redactBlocks(s)
	s, m := redactLines(s)
	return s, n + m
}

// maxPasses bounds the passes over one line. A pass that redacted something
// is followed by another one, because a later family can change the context
// an earlier family judged (a value that looked like a reference may lose
// its '$'); stopping at the fixed point is what makes String idempotent.
// Real text settles after the second pass; the bound only guards the growth
// of pathological input.
const maxPasses = 4

// rule is one family of secrets.
type rule struct {
	// name identifies the family in tests and documentation.
	name string
	// keys are lower-case literals of which at least one occurs in every
	// match; lines without any of them are skipped without running re.
	keys []string
	// then, when set, must accept the lower-case text that follows a
	// keyword occurrence for its line to be examined (an assignment
	// operator after a variable name, a blank after "bearer"). It is a
	// cheap filter: most lines say "token" or "key" without assigning one.
	then func(after string) bool
	// re matches a candidate. Capture groups whose name starts with
	// "secret" mark the spans that are replaced; the rest is kept.
	re *regexp.Regexp
	// accept, when set, vets a candidate so that lookalikes (prose,
	// environment references, function calls) survive: match is the whole
	// match, secret the span to replace, after the text that follows.
	accept func(match, secret, after string) bool
	// secretGroups are the indexes of the "secret" capture groups.
	secretGroups []int
}

// newRule compiles a family and records its secret groups. It panics on a
// bad expression: the table is static and covered by tests.
func newRule(name string, keys []string, expr string, accept func(match, secret, after string) bool) rule {
	r := rule{name: name, keys: keys, re: regexp.MustCompile(expr), accept: accept}
	for i, n := range r.re.SubexpNames() {
		if strings.HasPrefix(n, "secret") {
			r.secretGroups = append(r.secretGroups, i)
		}
	}
	if len(r.secretGroups) == 0 {
		panic("redact: rule " + name + " has no secret group")
	}
	return r
}

// redactBlocks applies the multiline families to the whole text.
func redactBlocks(s string) (string, int) {
	total := 0
	for i := range blockRules {
		r := &blockRules[i]
		if indexAny(asciiLower(s), r.keys, 0) < 0 {
			continue
		}
		var b strings.Builder
		if n := r.replace(&b, s); n > 0 {
			s, total = b.String(), total+n
		}
	}
	return s, total
}

// candidate is a line on which some line families may match.
type candidate struct {
	start, end int    // the line, without its newline
	rules      uint64 // bit i set: lineRules[i] may match
}

// redactLines finds the candidate lines of every line family with a keyword
// scan, then rewrites each candidate line once, applying its families in
// table order until the line stops changing. Lines without candidates are
// copied as they are, and s itself is returned when nothing matched.
func redactLines(s string) (string, int) {
	cands := candidates(s)
	if len(cands) == 0 {
		return s, 0
	}
	var b strings.Builder
	done, total := 0, 0
	for _, c := range cands {
		line, n := redactLine(s[c.start:c.end], c.rules)
		if n == 0 {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s) + 64)
		}
		b.WriteString(s[done:c.start])
		b.WriteString(line)
		done, total = c.end, total+n
	}
	if total == 0 {
		return s, 0
	}
	b.WriteString(s[done:])
	return b.String(), total
}

// redactLine applies the families of mask to line until it stops changing.
func redactLine(line string, mask uint64) (string, int) {
	total := 0
	var b strings.Builder
	for range maxPasses {
		changed := false
		for i := range lineRules {
			if mask&(1<<i) == 0 {
				continue
			}
			b.Reset()
			if n := lineRules[i].replace(&b, line); n > 0 {
				line, total, changed = b.String(), total+n, true
			}
		}
		if !changed {
			break
		}
	}
	return line, total
}

// candidates returns, in text order, the lines of s on which a line family
// may match: lines with one of its keywords followed by what its then
// filter wants. A redaction only ever removes text between keywords and
// inserts Marker (which holds no keyword), so the lines found up front are
// all the lines that can ever match.
func candidates(s string) []candidate {
	lower := asciiLower(s)
	var byStart map[int]int // line start -> index in cands
	var cands []candidate
	for i := range lineRules {
		lineRules[i].eachLine(s, lower, func(start, end int) {
			j, ok := byStart[start]
			if !ok {
				if byStart == nil {
					byStart = map[int]int{}
				}
				j = len(cands)
				byStart[start] = j
				cands = append(cands, candidate{start: start, end: end})
			}
			cands[j].rules |= 1 << i
		})
	}
	slices.SortFunc(cands, func(a, b candidate) int { return a.start - b.start })
	return cands
}

// eachLine calls fn with the bounds of every line of s that holds one of
// r's keywords accepted by r.then; lower is asciiLower(s).
func (r *rule) eachLine(s, lower string, fn func(start, end int)) {
	next := make([]int, len(r.keys)) // cached next position of each key
	for k := range next {
		next[k] = -2 // not searched yet
	}
	for pos := 0; pos < len(s); {
		i, k := nextKey(lower, r.keys, next, pos)
		if i < 0 {
			return
		}
		if r.then != nil && !r.then(lower[i+len(r.keys[k]):]) {
			pos = i + 1
			continue
		}
		start := strings.LastIndexByte(s[:i], '\n') + 1
		end := strings.IndexByte(s[i:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += i
		}
		fn(start, end)
		pos = end + 1
	}
}

// nextKey returns the smallest position >= pos where one of keys occurs in
// lower and which key it is, or -1. next caches each key's last found
// position so that a rare key is not searched for again on every line.
func nextKey(lower string, keys []string, next []int, pos int) (int, int) {
	best, bestKey := -1, -1
	for k, key := range keys {
		if next[k] == -1 {
			continue // no further occurrence
		}
		if next[k] < pos {
			j := strings.Index(lower[pos:], key)
			if j < 0 {
				next[k] = -1
				continue
			}
			next[k] = pos + j
		}
		// On a tie the longer key wins: "credentials" must be judged by
		// what follows the whole word, not by the "s" after "credential".
		if best < 0 || next[k] < best || (next[k] == best && len(key) > len(keys[bestKey])) {
			best, bestKey = next[k], k
		}
	}
	return best, bestKey
}

// replace writes seg to b with the secret spans of every accepted match
// replaced by Marker, and returns how many matches it redacted.
func (r *rule) replace(b *strings.Builder, seg string) int {
	n, done := 0, 0
	for _, m := range r.re.FindAllStringSubmatchIndex(seg, -1) {
		spans := r.secretSpans(seg, m)
		if len(spans) == 0 {
			continue
		}
		for _, sp := range spans {
			b.WriteString(seg[done:sp[0]])
			b.WriteString(Marker)
			done = sp[1]
		}
		n++
	}
	b.WriteString(seg[done:])
	return n
}

// secretSpans returns the spans of m to replace: the participating, non-empty
// secret groups that are not already exactly Marker and that accept allows.
func (r *rule) secretSpans(seg string, m []int) [][2]int {
	var spans [][2]int
	for _, g := range r.secretGroups {
		lo, hi := m[2*g], m[2*g+1]
		if lo < 0 || lo == hi || seg[lo:hi] == Marker {
			continue
		}
		if r.accept != nil && !r.accept(seg[m[0]:m[1]], seg[lo:hi], seg[m[1]:]) {
			continue
		}
		spans = append(spans, [2]int{lo, hi})
	}
	return spans
}

// indexAny returns the first position >= pos of any of keys in s, or -1.
func indexAny(s string, keys []string, pos int) int {
	best := -1
	for _, k := range keys {
		if j := strings.Index(s[pos:], k); j >= 0 && (best < 0 || pos+j < best) {
			best = pos + j
		}
	}
	return best
}

// asciiLower lower-cases ASCII letters only, so byte offsets in the result
// are the same as in s (strings.ToLower may change the length of non-ASCII
// text). Text without upper-case letters is returned as it is.
func asciiLower(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if c := b[i]; 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
