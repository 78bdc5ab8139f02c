package redact

import "strings"

// text is a string and the view the families are matched against. The
// view differs from the string only where the string holds JSON escapes of
// line structure: a tool call's input arrives JSON-encoded, so a `.env`
// file written by a tool reads `…\nAPI_KEY=…\nDB_PASSWORD=…` with a
// literal backslash-n before each name, where no word boundary, line start
// or value end would be seen. In the view every backslash of such an
// escape (`\n`, `\r`, `\t`, also behind further backslashes, as in JSON
// inside JSON) is a blank and the letter is the character it stands for.
// The replacement keeps the length, so an offset in the view is the same
// offset in the string: a match found in the view is cut out of the string,
// whose JSON stays exactly as it was (Marker needs no escaping). Escaped
// quotes (`\"`) are left alone in the view; the expressions accept them.
type text struct {
	s, v string
	// escaped reports whether v differs from s (else they share storage).
	escaped bool
}

// newText returns s with its view.
func newText(s string) text {
	v, escaped := scanView(s)
	return text{s: s, v: v, escaped: escaped}
}

// scanView returns the view of s and whether it differs from s.
func scanView(s string) (string, bool) {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s, false
	}
	var b []byte
	for ; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] == '\\' {
			j++
		}
		if j < len(s) {
			if c := escapedSpace(s[j]); c != 0 {
				if b == nil {
					b = []byte(s)
				}
				for k := i; k < j; k++ {
					b[k] = ' '
				}
				b[j] = c
			}
		}
		i = j
	}
	if b == nil {
		return s, false
	}
	return string(b), true
}

// escapedSpace returns the character the escape letter c stands for, or 0
// when c escapes nothing the view changes.
func escapedSpace(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return 0
}

// wholeEscapes shrinks a span of t so that it does not cut an escape in
// the view: a value read in the view may end on the blank of an escape's
// backslash (or start on its letter), and cutting the string there would
// leave half an escape behind, which a later pass would read differently.
func (t text) wholeEscapes(sp [2]int) [2]int {
	if !t.escaped {
		return sp
	}
	lo, hi := sp[0], sp[1]
	for lo < hi && lo > 0 && t.s[lo-1] == '\\' && t.v[lo-1] != '\\' {
		lo++
	}
	for hi > lo && t.s[hi-1] == '\\' && t.v[hi-1] != '\\' {
		hi--
	}
	return [2]int{lo, hi}
}

// slice returns t[lo:hi].
func (t text) slice(lo, hi int) text {
	if !t.escaped {
		s := t.s[lo:hi]
		return text{s: s, v: s}
	}
	return text{s: t.s[lo:hi], v: t.v[lo:hi], escaped: true}
}

// splice returns t with each span (in order, not overlapping) replaced by
// Marker, in the string and in the view alike.
func (t text) splice(spans [][2]int) text {
	s := spliceMarker(t.s, spans)
	if !t.escaped {
		return text{s: s, v: s}
	}
	return text{s: s, v: spliceMarker(t.v, spans), escaped: true}
}

func spliceMarker(s string, spans [][2]int) string {
	var b strings.Builder
	b.Grow(len(s) + len(spans)*len(Marker))
	done := 0
	for _, sp := range spans {
		b.WriteString(s[done:sp[0]])
		b.WriteString(Marker)
		done = sp[1]
	}
	b.WriteString(s[done:])
	return b.String()
}
