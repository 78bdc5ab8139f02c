package ledger

import (
	"strings"
	"testing"
)

func TestValidateName(t *testing.T) {
	tests := []struct {
		name, in, wantErr string
	}{
		{"plain", "feature-x", ""},
		{"spaces inside and unicode", "  refactor ação  ", ""},
		{"128 runes", strings.Repeat("é", 128), ""},
		{"empty", "", "empty"},
		{"blank", " \t ", "empty"},
		{"too long", strings.Repeat("a", 129), "longer than 128"},
		{"slash", "a/b", "path separators"},
		{"backslash", `a\b`, "path separators"},
		{"newline", "a\nb", "U+000A, an invisible control"},
		{"escape", "a\x1b[31m", "U+001B"},
		{"invalid utf8", "a\xffb", "UTF-8"},
		{"zero-width space", "default\u200b", "U+200B"},
		{"bidi override", "a\u202eb", "U+202E"},
		{"byte order mark", "\ufeffdefault", "U+FEFF"},
		{"C1 control", "a\u0085b", "U+0085"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateName(tt.in)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("ValidateName(%q) = %v; want error containing %q", tt.in, err, tt.wantErr)
			}
		})
	}
}

func TestMovedName(t *testing.T) {
	id := "01a2357f-de47-75b8-a19e-30a8c0050f66"
	if got := MovedName("default", id); got != "default-01a2357f" {
		t.Fatalf("MovedName = %q", got)
	}
	long := strings.Repeat("é", MaxNameRunes)
	got := MovedName(long, id)
	if err := ValidateName(got); err != nil || !strings.HasSuffix(got, "-01a2357f") {
		t.Fatalf("MovedName of a %d-rune name = %q (%v); want a valid name with the suffix", MaxNameRunes, got, err)
	}
}
