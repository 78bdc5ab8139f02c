package redact

import (
	"slices"
	"strings"
)

// This file keeps the previous implementation of the pipeline (one
// strings.Index per keyword over a lower-cased copy of the text) as the
// reference the keyword automaton is compared with. It shares only the
// family tables and their accept and then functions with the package.

// refCount is the previous Count (matching against the same view).
func refCount(s string) (string, int) {
	if s == "" {
		return s, 0
	}
	t := rules()
	txt, n := refRedactBlocks(t.block, newText(s))
	out, m := refRedactLines(t.line, txt)
	return out, n + m
}

func refRedactBlocks(block []rule, t text) (text, int) {
	total := 0
	for i := range block {
		r := &block[i]
		if refIndexAny(asciiLower(t.v), r.keys, 0) < 0 {
			continue
		}
		var n int
		t, n = refReplace(r, t)
		total += n
	}
	return t, total
}

func refRedactLines(line []rule, t text) (string, int) {
	cands := refCandidates(line, t.v)
	if len(cands) == 0 {
		return t.s, 0
	}
	var b strings.Builder
	done, total := 0, 0
	for _, c := range cands {
		out, n := refRedactLine(line, t.slice(c.start, c.end), c.rules)
		if n == 0 {
			continue
		}
		b.WriteString(t.s[done:c.start])
		b.WriteString(out)
		done, total = c.end, total+n
	}
	if total == 0 {
		return t.s, 0
	}
	b.WriteString(t.s[done:])
	return b.String(), total
}

func refRedactLine(line []rule, t text, mask uint64) (string, int) {
	total := 0
	for range maxPasses {
		changed := false
		for i := range line {
			if mask&(1<<i) == 0 {
				continue
			}
			var n int
			if t, n = refReplace(&line[i], t); n > 0 {
				total, changed = total+n, true
			}
		}
		if !changed {
			break
		}
	}
	return t.s, total
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

func refReplace(r *rule, t text) (text, int) {
	p := r.prog()
	n := 0
	var spans [][2]int
	for _, m := range p.re.FindAllStringSubmatchIndex(t.v, -1) {
		found := false
		for _, g := range p.secretGroups {
			lo, hi := m[2*g], m[2*g+1]
			if lo < 0 || lo == hi || t.v[lo:hi] == Marker {
				continue
			}
			if r.accept != nil && !r.accept(t.v[m[0]:m[1]], t.v[lo:hi], t.v[m[1]:]) {
				continue
			}
			if sp := t.wholeEscapes([2]int{lo, hi}); sp[0] < sp[1] {
				spans, found = append(spans, sp), true
			}
		}
		if found {
			n++
		}
	}
	if n == 0 {
		return t, 0
	}
	return t.splice(spans), n
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
