package redact

import "strings"

// scanner finds the keywords of every family in one pass over the text: an
// Aho-Corasick automaton, compiled to a DFA over byte classes, that folds
// ASCII case as it reads. It replaces one substring search per keyword per
// text, which made the keyword pre-scan the largest cost of an import.
type scanner struct {
	// class maps a byte to its input class. Bytes in no keyword share
	// class 0; an ASCII upper-case letter has the class of its lower case
	// (only ASCII folds, like asciiLower, so offsets never move).
	class [256]uint8
	// nclass is the number of classes, the stride of delta.
	nclass int
	// delta[state+class] is the next state, premultiplied by nclass, with
	// hitFlag set when keywords end in it: the hot loop is one load and
	// one test per byte.
	delta []uint16
	// hits[state/nclass] are the keywords that end in that state.
	hits [][]keyHit
}

// hitFlag marks a state in which at least one keyword ends.
const hitFlag = 0x8000

// keyHit is one keyword of one family, as seen where it ends.
type keyHit struct {
	n      int               // keyword length
	block  bool              // a block family's keyword: only its presence counts
	rule   int               // index in blockRules or lineRules
	then   func(string) bool // the family's filter, nil for none
	longer []string          // the family's longer keywords that start with this one
}

// newScanner builds the automaton for the keywords of both tables.
func newScanner(block, line []rule) *scanner {
	var kws []string
	var kwHits [][]keyHit
	add := func(key string, h keyHit) {
		i := indexOf(kws, key)
		if i < 0 {
			i = len(kws)
			kws, kwHits = append(kws, key), append(kwHits, nil)
		}
		kwHits[i] = append(kwHits[i], h)
	}
	for i, r := range block {
		for _, k := range r.keys {
			add(k, keyHit{n: len(k), block: true, rule: i})
		}
	}
	for i, r := range line {
		for _, k := range r.keys {
			add(k, keyHit{n: len(k), rule: i, then: r.then, longer: extensions(r.keys, k)})
		}
	}
	sc := &scanner{}
	sc.nclass = sc.assignClasses(kws)
	sc.build(kws, kwHits)
	return sc
}

// indexOf returns the index of s in list, or -1.
func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// extensions returns the keys longer than key that start with it. Where a
// family has both ("credential", "credentials"), only the longest keyword
// at a position is judged: the filter must see what follows the whole word.
func extensions(keys []string, key string) []string {
	var out []string
	for _, k := range keys {
		if len(k) > len(key) && strings.HasPrefix(k, key) {
			out = append(out, k)
		}
	}
	return out
}

// assignClasses gives every byte used by a keyword its own class and folds
// upper-case ASCII onto lower case. It panics on a keyword the scan cannot
// honour: the table is static and covered by tests.
func (sc *scanner) assignClasses(kws []string) int {
	n := 1
	for _, k := range kws {
		if k == "" || strings.ContainsAny(k, "\nABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			panic("redact: keyword " + k + " must be non-empty, lower-case and on one line")
		}
		for i := 0; i < len(k); i++ {
			c := k[i]
			if sc.class[c] == 0 {
				sc.class[c] = uint8(n)
				n++
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		sc.class[c] = sc.class[c+'a'-'A']
	}
	return n
}

// build constructs the trie of kws, then turns it into a DFA breadth
// first: a missing transition follows the failure link, and a state
// reports its own keywords and those of its failure state (its suffixes).
func (sc *scanner) build(kws []string, kwHits [][]keyHit) {
	next, own := sc.trie(kws, kwHits)
	nc, states := sc.nclass, len(own)
	if states*nc >= hitFlag {
		panic("redact: too many keyword states")
	}
	sc.delta = make([]uint16, states*nc)
	sc.hits = make([][]keyHit, states)
	fail := make([]int, states)
	queue := make([]int, 1, states)
	for q := 0; q < len(queue); q++ {
		u := queue[q]
		sc.hits[u] = append(own[u], sc.hits[fail[u]]...)
		for c := range nc {
			v := next[u*nc+c]
			switch {
			case v > 0:
				if u > 0 {
					fail[v] = int(sc.delta[fail[u]*nc+c]) / nc
				}
				queue = append(queue, v)
			case u > 0:
				v = int(sc.delta[fail[u]*nc+c]) / nc
			}
			sc.delta[u*nc+c] = uint16(v * nc)
		}
	}
	for i, st := range sc.delta {
		if len(sc.hits[int(st)/nc]) > 0 {
			sc.delta[i] |= hitFlag
		}
	}
}

// trie returns the goto function of the keyword trie, flat with stride
// nclass (state 0 is the root; 0 also means "no edge", since no edge leads
// back to the root), and the hits of the keywords that end in each state.
func (sc *scanner) trie(kws []string, kwHits [][]keyHit) ([]int, [][]keyHit) {
	nc := sc.nclass
	next := make([]int, nc, 256*nc)
	own := make([][]keyHit, 1, 256)
	for i, k := range kws {
		u := 0
		for j := 0; j < len(k); j++ {
			e := u*nc + int(sc.class[k[j]])
			if next[e] == 0 {
				next[e] = len(own)
				next, own = append(next, make([]int, nc)...), append(own, nil)
			}
			u = next[e]
		}
		own[u] = append(own[u], kwHits[i]...)
	}
	return next, own
}

// scan returns, in text order, the lines of s on which a line family may
// match (a line holding one of its keywords accepted by its filter), and
// the set of block families whose keywords occur in s.
func (sc *scanner) scan(s string) ([]candidate, uint64) {
	var cands []candidate
	var blocks uint64
	delta, class := sc.delta, &sc.class
	st := 0
	for i := 0; i < len(s); i++ {
		st = int(delta[st+int(class[s[i]])])
		if st&hitFlag != 0 {
			st &^= hitFlag
			cands, blocks = sc.judge(s, i+1, sc.hits[st/sc.nclass], cands, blocks)
		}
	}
	return cands, blocks
}

// judge handles the keywords hs that end at end: it records block
// keywords and marks the line for each family whose filter accepts what
// follows its keyword. Keys never span lines and hits come in text order,
// so a hit belongs either to the last candidate line or to a new one.
func (sc *scanner) judge(s string, end int, hs []keyHit, cands []candidate, blocks uint64) ([]candidate, uint64) {
	for i := range hs {
		h := &hs[i]
		if h.block {
			blocks |= 1 << h.rule
			continue
		}
		p, bit := end-h.n, uint64(1)<<h.rule
		last := len(cands) - 1
		sameLine := last >= 0 && p < cands[last].end
		if sameLine && cands[last].rules&bit != 0 {
			continue
		}
		if hasLongerKey(s[p:], h.longer) || (h.then != nil && !h.then(s[end:])) {
			continue
		}
		if sameLine {
			cands[last].rules |= bit
			continue
		}
		cands = append(cands, lineAround(s, p, end, bit))
	}
	return cands, blocks
}

// hasLongerKey reports whether s starts with one of keys, ASCII case
// folded.
func hasLongerKey(s string, keys []string) bool {
	for _, k := range keys {
		if hasPrefixFold(s, k) {
			return true
		}
	}
	return false
}

// hasPrefixFold reports whether asciiLower(s) starts with the lower-case
// prefix. It folds ASCII only: strings.EqualFold would also fold, say, the
// Kelvin sign onto 'k', which the keyword scan does not.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// lineAround returns the candidate for the line holding s[p:end].
func lineAround(s string, p, end int, rules uint64) candidate {
	c := candidate{start: strings.LastIndexByte(s[:p], '\n') + 1, end: len(s), rules: rules}
	if j := strings.IndexByte(s[end:], '\n'); j >= 0 {
		c.end = end + j
	}
	return c
}
