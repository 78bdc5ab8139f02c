package history

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Clean makes transcript text safe to show on a terminal or a page: C0 and
// C1 control characters other than newline and tab become visible symbols
// (ESC shows as ␛), so an escape sequence in a transcript cannot recolour,
// retitle or clear the reader's terminal. Invalid UTF-8 becomes U+FFFD.
func Clean(s string) string {
	if isClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20:
			b.WriteRune(0x2400 + r) // Control Pictures block
		case r == 0x7f:
			b.WriteRune('\u2421')
		case r >= 0x80 && r < 0xa0:
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isClean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f || c >= 0x80 {
			if c >= 0x80 {
				return cleanTail(s[i:])
			}
			return false
		}
	}
	return true
}

// cleanTail checks the non-ASCII rest of s rune by rune.
func cleanTail(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return false
		}
	}
	return true
}

// OneLine is the first non-blank line of s, cleaned and cut to max runes
// (with "…"), for titles and one-line listings.
func OneLine(s string, max int) string {
	line := ""
	for _, l := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			line = t
			break
		}
	}
	line = strings.ReplaceAll(Clean(line), "\t", " ")
	if utf8.RuneCountInString(line) <= max {
		return line
	}
	r := []rune(line)
	return string(r[:max-1]) + "…"
}

// FormatDuration renders d coarsely for listings: 42s, 3m05s, 1h02m.
func FormatDuration(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}
