package harness

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// tomlSimpleEscapes are TOML's one-letter escapes (\e is TOML 1.1).
var tomlSimpleEscapes = map[byte]string{'b': "\b", 't': "\t", 'n': "\n", 'f': "\f", 'r': "\r", '"': `"`, '\\': `\`, 'e': "\x1b"}

// tomlQuote encodes s as a TOML basic string, the form Codex parses from a
// -c key=value override. TOML needs valid UTF-8 and escaped control
// characters; everything else is kept as is.
func tomlQuote(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlUnquote decodes the value of a user's -c override the way Codex does:
// as a TOML string when it is one (basic, literal, or their multi-line
// forms), else the raw text with surrounding quotes trimmed.
func tomlUnquote(raw string) string {
	raw = strings.TrimSpace(raw)
	for _, q := range []string{`"""`, `'''`} {
		if len(raw) >= 6 && strings.HasPrefix(raw, q) && strings.HasSuffix(raw, q) {
			body := strings.TrimPrefix(strings.TrimPrefix(raw[3:len(raw)-3], "\r"), "\n")
			if q == `'''` {
				return body
			}
			if s, ok := unescapeBasic(body, true); ok {
				return s
			}
		}
	}
	if len(raw) >= 2 && raw[0] == '\'' && raw[len(raw)-1] == '\'' && !strings.Contains(raw[1:len(raw)-1], "'") {
		return raw[1 : len(raw)-1]
	}
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		if s, ok := unescapeBasic(raw[1:len(raw)-1], false); ok {
			return s
		}
	}
	return strings.Trim(raw, `"'`)
}

// unescapeBasic decodes the body of a TOML basic string. In a multi-line
// body a backslash at the end of a line trims the following whitespace.
func unescapeBasic(s string, multiline bool) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' && !multiline {
			return "", false
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(s) {
			return "", false
		}
		n, ok := unescapeOne(&b, s[i+1:], multiline)
		if !ok {
			return "", false
		}
		i += n
	}
	return b.String(), true
}

// unescapeOne decodes the escape whose body starts rest (after the
// backslash), writes it to b and returns how many bytes it used.
func unescapeOne(b *strings.Builder, rest string, multiline bool) (int, bool) {
	if v, ok := tomlSimpleEscapes[rest[0]]; ok {
		b.WriteString(v)
		return 1, true
	}
	switch rest[0] {
	case 'u', 'U':
		width := 4
		if rest[0] == 'U' {
			width = 8
		}
		if len(rest) < 1+width {
			return 0, false
		}
		v, err := strconv.ParseUint(rest[1:1+width], 16, 32)
		if err != nil || !utf8.ValidRune(rune(v)) {
			return 0, false
		}
		b.WriteRune(rune(v))
		return 1 + width, true
	}
	if multiline {
		trimmed := strings.TrimLeft(rest, " \t\r\n")
		if strings.ContainsAny(rest[:len(rest)-len(trimmed)], "\n") {
			return len(rest) - len(trimmed), true
		}
	}
	return 0, false
}
