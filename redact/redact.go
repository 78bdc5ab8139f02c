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
// Every family is an RE2 expression (linear time, no catastrophic
// backtracking) guarded by lower-case keywords: an expression only runs on the
// lines that contain one of its keywords, found for all families at once by a
// single pass of a keyword automaton, which keeps the common case (text
// without any credential-like word) close to the speed of reading it.
// Nothing is compiled before the first call: importing the package is free.
package redact

import (
	"regexp"
	"strings"
	"sync"
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
	t := rules()
	txt := newText(s)
	cands, blocks := t.scan.scan(txt.v)
	n := 0
	if blocks != 0 {
		if txt, n = redactBlocks(t.block, txt, blocks); n > 0 {
			cands, _ = t.scan.scan(txt.v)
		}
	}
	out, m := redactLines(t.line, txt, cands)
	return out, n + m
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
	// then, when set, must accept the text that follows a keyword
	// occurrence for its line to be examined (an assignment operator after
	// a variable name, a blank after "bearer"). It is a cheap filter: most
	// lines say "token" or "key" without assigning one. It must not depend
	// on letter case, since keywords match in any case.
	then func(after string) bool
	// prog compiles the expression on first use (see [program]).
	prog func() program
	// accept, when set, vets a candidate so that lookalikes (prose,
	// environment references, function calls) survive: match is the whole
	// match, secret the span to replace, after the text that follows.
	accept func(match, secret, after string) bool
}

// program is a compiled family expression.
type program struct {
	// re matches a candidate. Capture groups whose name starts with
	// "secret" mark the spans that are replaced; the rest is kept.
	re *regexp.Regexp
	// secretGroups are the indexes of the "secret" capture groups.
	secretGroups []int
}

// newRule declares a family. Its expression is compiled the first time a
// line needs it, so a process that never meets the family's keywords never
// pays for it.
func newRule(name string, keys []string, expr string, accept func(match, secret, after string) bool) rule {
	return rule{name: name, keys: keys, accept: accept,
		prog: sync.OnceValue(func() program { return compile(name, expr) })}
}

// compile compiles a family expression and records its secret groups. It
// panics on a bad expression: the table is static and covered by tests.
func compile(name, expr string) program {
	p := program{re: regexp.MustCompile(expr)}
	for i, n := range p.re.SubexpNames() {
		if strings.HasPrefix(n, "secret") {
			p.secretGroups = append(p.secretGroups, i)
		}
	}
	if len(p.secretGroups) == 0 {
		panic("redact: rule " + name + " has no secret group")
	}
	return p
}

// ruleSet is the family tables and their keyword scanner.
type ruleSet struct {
	block, line []rule
	scan        *scanner
}

// The tables are built on the first call rather than at package
// initialisation, which every ai-memory command would pay for (the
// launcher's start-up budget is a few milliseconds).
var (
	ruleSetOnce sync.Once
	ruleSetVal  *ruleSet
)

// rules returns the family tables, building them on first use.
func rules() *ruleSet {
	ruleSetOnce.Do(func() {
		block, line := blockRules(), lineRules()
		if len(line) > 64 || len(block) > 64 {
			panic("redact: more than 64 families in a table")
		}
		ruleSetVal = &ruleSet{block: block, line: line, scan: newScanner(block, line)}
	})
	return ruleSetVal
}

// redactBlocks applies the multiline families in mask (the families whose
// keywords occur in t) to the whole text.
func redactBlocks(block []rule, t text, mask uint64) (text, int) {
	total := 0
	for i := range block {
		if mask&(1<<i) == 0 {
			continue
		}
		var n int
		t, n = block[i].replace(t)
		total += n
	}
	return t, total
}

// candidate is a line on which some line families may match.
type candidate struct {
	start, end int    // the line, without its newline
	rules      uint64 // bit i set: lineRules[i] may match
}

// redactLines rewrites each candidate line of t (found by the keyword
// scan of its view) once, applying its families in table order until the
// line stops changing. A redaction only ever removes text between keywords
// and inserts Marker (which holds no keyword), so the lines found up front
// are all the lines that can ever match. Other lines are copied as they
// are, and t.s itself is returned when nothing matched.
func redactLines(line []rule, t text, cands []candidate) (string, int) {
	if len(cands) == 0 {
		return t.s, 0
	}
	var b strings.Builder
	done, total := 0, 0
	for _, c := range cands {
		out, n := redactLine(line, t.slice(c.start, c.end), c.rules)
		if n == 0 {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(t.s) + 64)
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

// redactLine applies the families of mask to line until it stops changing.
func redactLine(rules []rule, line text, mask uint64) (string, int) {
	total := 0
	for range maxPasses {
		changed := false
		for i := range rules {
			if mask&(1<<i) == 0 {
				continue
			}
			var n int
			if line, n = rules[i].replace(line); n > 0 {
				total, changed = total+n, true
			}
		}
		if !changed {
			break
		}
	}
	return line.s, total
}

// replace returns seg with the secret spans of every accepted match (found
// in its view) replaced by Marker, and how many matches it redacted.
func (r *rule) replace(seg text) (text, int) {
	p := r.prog()
	var spans [][2]int
	n := 0
	for _, m := range p.re.FindAllStringSubmatchIndex(seg.v, -1) {
		found := false
		for _, sp := range r.secretSpans(seg.v, m, p.secretGroups) {
			if sp = seg.wholeEscapes(sp); sp[0] < sp[1] {
				spans, found = append(spans, sp), true
			}
		}
		if found {
			n++
		}
	}
	if n == 0 {
		return seg, 0
	}
	return seg.splice(spans), n
}

// secretSpans returns the spans of m to replace: the participating, non-empty
// secret groups that are not already exactly Marker and that accept allows.
func (r *rule) secretSpans(seg string, m []int, groups []int) [][2]int {
	var spans [][2]int
	for _, g := range groups {
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
