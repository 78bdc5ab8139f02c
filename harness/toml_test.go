package harness

import (
	"testing"
	"unicode/utf8"
)

func TestTOMLQuoteRoundTrip(t *testing.T) {
	for _, s := range []string{
		"", "plain", `quote " and \ backslash`, "tabs\tand\nnewlines\r\n", "bell\a esc\x1b del\x7f nul\x00",
		"unicode é 🙂 \u2028", "<!-- ai-memory:managed-workstream-packet:v1 -->\n> quoted",
	} {
		q := tomlQuote(s)
		if got := tomlUnquote(q); got != s {
			t.Errorf("tomlUnquote(tomlQuote(%q)) = %q via %s", s, got, q)
		}
		for _, r := range q {
			if r < 0x20 || r == 0x7f {
				t.Errorf("tomlQuote(%q) = %q keeps control character %U", s, q, r)
			}
		}
	}
	if q := tomlQuote("bad\xffbyte"); !utf8.ValidString(q) || tomlUnquote(q) != "bad\uFFFDbyte" {
		t.Errorf("invalid UTF-8 not replaced: %q", q)
	}
}

func TestTOMLUnquote(t *testing.T) {
	tests := []struct{ raw, want string }{
		{`"a\tb\u00e9\U0001F642"`, "a\tbé🙂"},
		{`'C:\path\no escapes'`, `C:\path\no escapes`},
		{"\"\"\"\nfirst\nsecond \\\n    joined\"\"\"", "first\nsecond joined"},
		{"'''\nraw \\n kept'''", `raw \n kept`},
		{`bare words`, "bare words"},
		{` "padded" `, "padded"},
		{`"broken \q"`, "broken \\q"},
		{`"a"b"`, `a"b`},
		{`"\u12"`, `\u12`},
	}
	for _, tt := range tests {
		if got := tomlUnquote(tt.raw); got != tt.want {
			t.Errorf("tomlUnquote(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}
