package handoff

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Caps of the one-line fields that come from imported data.
const (
	maxLabelChars = 64  // harness, role, kind, target
	maxNameChars  = 128 // workstream name and id
)

// ellipsis ends every text that was cut.
const ellipsis = "…"

// content prepares an event's content for a block: valid UTF-8, escaped so
// it cannot close the history section or forge a block, trimmed of trailing
// blank space, and capped at MaxEventChars characters.
func content(s string) string {
	s = strings.TrimRightFunc(escapeText(s), unicode.IsSpace)
	if s == "" {
		return "(empty)"
	}
	return capRunes(s, MaxEventChars)
}

// escapeText neutralises our delimiters inside untrusted text:
//   - every "<!--" becomes "&lt;!--", so no content can produce the history
//     end delimiter, the packet marker, or any other HTML comment that a
//     reader could take for ours;
//   - a line starting with "###" (after up to three spaces, as Markdown
//     allows) gets a backslash, so content cannot forge another block.
//
// It also replaces invalid UTF-8, so cutting by characters is well defined.
func escapeText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "<!--", "&lt;!--")
	if !strings.Contains(s, "###") {
		return s
	}
	return blockHeading().ReplaceAllString(s, `$1\###`)
}

// blockHeading matches a line that would read as a block heading.
var blockHeading = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^( {0,3})###`) })

// singleLine prepares a short field for a heading: escaped, control
// characters (newlines included) turned into spaces, trimmed and capped.
func singleLine(s string, maxChars int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, escapeText(s))
	return capRunes(strings.TrimSpace(s), maxChars)
}

// capRunes returns s cut to at most n characters, the last of them "…"
// when it was cut. It never splits a UTF-8 sequence.
func capRunes(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for count < n-1 {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		count++
	}
	return s[:i] + ellipsis
}
