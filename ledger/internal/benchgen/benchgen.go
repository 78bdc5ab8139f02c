// Package benchgen generates deterministic, natural-language-like ledger
// events for benchmarks: a Zipf(1.07) vocabulary of 30,000 words so term
// frequencies look like real text (a few very common words, a long tail).
package benchgen

import (
	"fmt"
	"math/rand"
	"strings"
)

// VocabSize is the number of distinct words.
const VocabSize = 30000

// Gen produces event contents and query terms from one seeded source.
type Gen struct {
	rng   *rand.Rand
	zipf  *rand.Zipf
	words []string
}

// New returns a generator seeded with seed.
func New(seed int64) *Gen {
	rng := rand.New(rand.NewSource(seed))
	g := &Gen{rng: rng, zipf: rand.NewZipf(rng, 1.07, 1, VocabSize-1)}
	g.words = make([]string, VocabSize)
	for i := range g.words {
		g.words[i] = word(i)
	}
	return g
}

// word makes a distinct pronounceable word for rank i.
func word(i int) string {
	const cons, vows = "bcdfghjklmnprstvz", "aeiou"
	var b strings.Builder
	for n := i + 1; n > 0; n /= len(cons) * len(vows) {
		b.WriteByte(cons[n%len(cons)])
		b.WriteByte(vows[(n/len(cons))%len(vows)])
	}
	if b.Len() < 4 {
		b.WriteString("ra")
	}
	return b.String()
}

// Content returns a text of about avg bytes (uniform in [avg/5, 9*avg/5]).
func (g *Gen) Content(avg int) string {
	n := avg/5 + g.rng.Intn(avg*8/5+1)
	var b strings.Builder
	b.Grow(n + 16)
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.words[g.zipf.Uint64()])
	}
	return b.String()
}

// Word returns the word of Zipf rank r (0 is the most common).
func (g *Gen) Word(r int) string { return g.words[r] }

// Pair returns a 2-word query with both ranks drawn from [lo, hi).
func (g *Gen) Pair(lo, hi int) string {
	a := lo + g.rng.Intn(hi-lo)
	b := lo + g.rng.Intn(hi-lo)
	for b == a {
		b = lo + g.rng.Intn(hi-lo)
	}
	return fmt.Sprintf("%s %s", g.words[a], g.words[b])
}
