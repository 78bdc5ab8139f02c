package jsonx

// Extraction helpers over JSON that Valid accepted: they return raw
// slices of the input and unescape strings only on demand.

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The helpers below assume their input was validated by Valid.

// skipValue returns the end of the (valid) value starting at b[i].
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		return skipNested(b, i)
	}
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
		i++
	}
	return i
}

func skipString(b []byte, i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b)
		}
		q := j + k
		n := 0 // backslashes right before the quote: odd means escaped
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

func skipNested(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			i = skipString(b, i)
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return i
}

// Fields calls fn for every member of the (valid) object v, in order,
// with the raw key (quotes included) and raw value. It stops when fn returns
// false. A non-object v has no fields.
func Fields(v []byte, fn func(key, val []byte) bool) {
	if len(v) == 0 || v[0] != '{' {
		return
	}
	i := skipWS(v, 1)
	for i < len(v) && v[i] == '"' {
		kEnd := skipString(v, i)
		key := v[i:kEnd]
		vStart := skipWS(v, skipWS(v, kEnd)+1)
		vEnd := skipValue(v, vStart)
		if !fn(key, v[vStart:vEnd]) {
			return
		}
		i = skipWS(v, vEnd)
		if i < len(v) && v[i] == ',' {
			i = skipWS(v, i+1)
		}
	}
}

// Elems calls fn for every element of the (valid) array v until fn
// returns false. A non-array v has no elements.
func Elems(v []byte, fn func(elem []byte) bool) {
	if len(v) == 0 || v[0] != '[' {
		return
	}
	i := skipWS(v, 1)
	for i < len(v) && v[i] != ']' {
		end := skipValue(v, i)
		if !fn(v[i:end]) {
			return
		}
		i = skipWS(v, end)
		if i < len(v) && v[i] == ',' {
			i = skipWS(v, i+1)
		}
	}
}

// Get returns the raw value of the last member named name (the member
// encoding/json would keep), or nil.
func Get(v []byte, name string) []byte {
	var out []byte
	Fields(v, func(k, val []byte) bool {
		if keyIs(k, name) {
			out = val
		}
		return true
	})
	return out
}

// Pick stores in out[i] the raw value of the last member named
// names[i] of the (valid) object v, in a single pass over v.
func Pick(v []byte, names []string, out [][]byte) {
	Fields(v, func(k, val []byte) bool {
		key := KeyName(k)
		for i, n := range names {
			if string(key) == n {
				out[i] = val
			}
		}
		return true
	})
}

// keyIs reports whether the raw key k (with quotes) spells name.
func keyIs(k []byte, name string) bool {
	inner := k[1 : len(k)-1]
	if len(inner) == len(name) && string(inner) == name {
		return true
	}
	if bytes.IndexByte(inner, '\\') < 0 {
		return false
	}
	s, _ := String(k)
	return s == name
}

// String unescapes the raw JSON string v. ok is false when v is not a
// string. Invalid UTF-8 and lone surrogates become U+FFFD, as encoding/json
// does.
func String(v []byte) (s string, ok bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		if utf8.Valid(inner) {
			return string(inner), true
		}
		return replaceInvalid(string(inner)), true
	}
	return unescape(inner), true
}

func unescape(in []byte) string {
	var sb strings.Builder
	sb.Grow(len(in))
	for i := 0; i < len(in); {
		k := bytes.IndexByte(in[i:], '\\')
		if k < 0 {
			sb.Write(in[i:])
			break
		}
		sb.Write(in[i : i+k])
		i = unescapeOne(&sb, in, i+k)
	}
	out := sb.String()
	if !utf8.ValidString(out) {
		out = replaceInvalid(out)
	}
	return out
}

// replaceInvalid replaces every invalid UTF-8 byte with U+FFFD, one for
// one, as encoding/json does (strings.ToValidUTF8 would merge runs).
func replaceInvalid(s string) string {
	var sb strings.Builder
	sb.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			sb.WriteString("\uFFFD")
		} else {
			sb.WriteString(s[i : i+size])
		}
		i += size
	}
	return sb.String()
}

// unescapeOne writes the escape at in[i] == '\\' and returns the next index.
func unescapeOne(sb *strings.Builder, in []byte, i int) int {
	if i+1 >= len(in) {
		return len(in)
	}
	switch e := in[i+1]; e {
	case 'b':
		sb.WriteByte('\b')
	case 'f':
		sb.WriteByte('\f')
	case 'n':
		sb.WriteByte('\n')
	case 'r':
		sb.WriteByte('\r')
	case 't':
		sb.WriteByte('\t')
	case 'u':
		r, next := decodeU(in, i)
		sb.WriteRune(r)
		return next
	default: // '"', '\\', '/'
		sb.WriteByte(e)
	}
	return i + 2
}

// decodeU decodes \uXXXX at in[i], joining a surrogate pair when one follows.
func decodeU(in []byte, i int) (rune, int) {
	r := hex4(in, i+2)
	if r < 0 {
		return utf8.RuneError, min(i+2, len(in))
	}
	if !utf16.IsSurrogate(r) {
		return r, i + 6
	}
	if i+12 <= len(in) && in[i+6] == '\\' && in[i+7] == 'u' {
		if r2 := hex4(in, i+8); r2 >= 0 {
			if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
				return d, i + 12
			}
		}
	}
	return utf8.RuneError, i + 6
}

func hex4(in []byte, i int) rune {
	if i+4 > len(in) {
		return -1
	}
	var r rune
	for _, c := range in[i : i+4] {
		h := hexVal(c)
		if h < 0 {
			return -1
		}
		r = r<<4 | rune(h)
	}
	return r
}

// Bool reports whether v is the literal true.
func Bool(v []byte) bool { return string(v) == "true" }

// Compact appends the (valid) JSON value v without insignificant
// whitespace.
func Compact(dst, v []byte) []byte {
	for i := 0; i < len(v); {
		c := v[i]
		if c == '"' {
			end := skipString(v, i)
			dst = append(dst, v[i:end]...)
			i = end
			continue
		}
		if !isWS(c) {
			dst = append(dst, c)
		}
		i++
	}
	return dst
}

// KeyName returns the unescaped bytes of the raw key k (quotes included).
func KeyName(k []byte) []byte {
	inner := k[1 : len(k)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return inner
	}
	s, _ := String(k)
	return []byte(s)
}
