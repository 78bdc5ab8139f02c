package redact

import (
	"slices"
	"strings"
)

// This file keeps the previous implementation of the pipeline (one
// strings.Index per keyword over a lower-cased copy of the text) as the
// reference the keyword automaton is compared with. It shares only the
// family tables and their accept and then functions with the package.

// refCount is the previous Count.
func refCount(s string) (string, int) {
	if s == "" {
		return s, 0
	}
	t := rules()
	s, n := refRedactBlocks(t.block, s)
	s, m := refRedactLines(t.line, s)
	return s, n + m
}

func refRedactBlocks(block []rule, s string) (string, int) {
	total := 0
	for i := range block {
		r := &block[i]
		if refIndexAny(asciiLower(s), r.keys, 0) < 0 {
			continue
		}
		var b strings.Builder
		if n := refReplace(r, &b, s); n > 0 {
			s, total = b.String(), total+n
		}
	}
	return s, total
}

func refRedactLines(line []rule, s string) (string, int) {
	cands := refCandidates(line, s)
	if len(cands) == 0 {
		return s, 0
	}
	var b strings.Builder
	done, total := 0, 0
	for _, c := range cands {
		out, n := refRedactLine(line, s[c.start:c.end], c.rules)
		if n == 0 {
			continue
		}
		b.WriteString(s[done:c.start])
		b.WriteString(out)
		done, total = c.end, total+n
	}
	if total == 0 {
		return s, 0
	}
	b.WriteString(s[done:])
	return b.String(), total
}

func refRedactLine(line []rule, text string, mask uint64) (string, int) {
	total := 0
	var b strings.Builder
	for range maxPasses {
		changed := false
		for i := range line {
			if mask&(1<<i) == 0 {
				continue
			}
			b.Reset()
			if n := refReplace(&line[i], &b, text); n > 0 {
				text, total, changed = b.String(), total+n, true
			}
		}
		if !changed {
			break
		}
	}
	return text, total
}

// refCandidates is the previous keyword scan: for every family, a search
// for each of its keywords, merged by line start and sorted.
func refCandidates(line []rule, s string) []candidate {
	lower := asciiLower(s)
	var byStart map[int]int
	var cands []candidate
	for i := range line {
		refEachLine(&line[i], s, lower, func(start, end int) {
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

func refEachLine(r *rule, s, lower string, fn func(start, end int)) {
	next := make([]int, len(r.keys))
	for k := range next {
		next[k] = -2
	}
	for pos := 0; pos < len(s); {
		i, k := refNextKey(lower, r.keys, next, pos)
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

func refNextKey(lower string, keys []string, next []int, pos int) (int, int) {
	best, bestKey := -1, -1
	for k, key := range keys {
		if next[k] == -1 {
			continue
		}
		if next[k] < pos {
			j := strings.Index(lower[pos:], key)
			if j < 0 {
				next[k] = -1
				continue
			}
			next[k] = pos + j
		}
		if best < 0 || next[k] < best || (next[k] == best && len(key) > len(keys[bestKey])) {
			best, bestKey = next[k], k
		}
	}
	return best, bestKey
}

func refReplace(r *rule, b *strings.Builder, seg string) int {
	p := r.prog()
	n, done := 0, 0
	for _, m := range p.re.FindAllStringSubmatchIndex(seg, -1) {
		var spans [][2]int
		for _, g := range p.secretGroups {
			lo, hi := m[2*g], m[2*g+1]
			if lo < 0 || lo == hi || seg[lo:hi] == Marker {
				continue
			}
			if r.accept != nil && !r.accept(seg[m[0]:m[1]], seg[lo:hi], seg[m[1]:]) {
				continue
			}
			spans = append(spans, [2]int{lo, hi})
		}
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

func refIndexAny(s string, keys []string, pos int) int {
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
