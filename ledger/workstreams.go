package ledger

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Scope is the checkout a workstream belongs to. Names are unique within
// (RepoFingerprint, WorktreeFingerprint); Cwd is stored for diagnostics only.
type Scope struct {
	RepoFingerprint, WorktreeFingerprint, Cwd string
}

// Workstream is one named line of work in a checkout.
type Workstream struct {
	ID, Name, RepoFingerprint, WorktreeFingerprint, Cwd string
	CreatedAt, SelectedAt, UpdatedAt                    time.Time
}

// Selector says which workstream a launch wants. {"", false}: the most
// recently selected one of the scope, else a new "default"; {N, false}: N
// must exist; {N, true}: N must not exist and is created.
type Selector struct {
	Name   string
	Create bool
}

// DefaultWorkstreamName is the name created when a scope has none.
const DefaultWorkstreamName = "default"

// MaxNameRunes bounds a workstream name.
const MaxNameRunes = 128

// ValidateName checks a workstream name: non-empty after trimming, at most
// 128 characters, no control characters and no path separators (names show
// up in messages and may become file names in tools around us).
func ValidateName(name string) error {
	n := strings.TrimSpace(name)
	switch {
	case n == "":
		return errors.New("workstream name is empty; pass a name such as --workstream feature-x")
	case !utf8.ValidString(n):
		return fmt.Errorf("workstream name %q is not valid UTF-8; choose another name", name)
	case utf8.RuneCountInString(n) > MaxNameRunes:
		return fmt.Errorf("workstream name is longer than %d characters; choose a shorter name", MaxNameRunes)
	case strings.ContainsAny(n, `/\`):
		return fmt.Errorf("workstream name %q contains '/' or '\\'; choose a name without path separators", n)
	}
	if i := strings.IndexFunc(n, invisible); i >= 0 {
		r, _ := utf8.DecodeRuneInString(n[i:])
		return fmt.Errorf("workstream name %q contains U+%04X, an invisible control or format character; choose a name of visible characters", n, r)
	}
	return nil
}

// invisible reports control (Cc) and format (Cf) characters: zero-width
// spaces, bidi overrides and the like would make two names look the same
// ("default" and "default\u200b") or reorder what a terminal shows.
func invisible(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

// MovedName is the name a workstream moved by MoveScope takes when its own
// is taken in the scope it moves to: the name, cut to stay within
// MaxNameRunes, plus "-" and the first 8 characters of its id (unique in
// practice, and it tells the user which workstream it was).
func MovedName(name, id string) string {
	suffix := "-" + id
	if len(id) > 8 {
		suffix = "-" + id[:8]
	}
	if r := []rune(name); len(r)+len(suffix) > MaxNameRunes {
		name = string(r[:MaxNameRunes-len(suffix)])
	}
	return name + suffix
}

// ValidateScope refuses a scope without both fingerprints; every backend
// checks it before it looks a scope up, so none stores a half-keyed row.
func ValidateScope(s Scope) error {
	if strings.TrimSpace(s.RepoFingerprint) == "" || strings.TrimSpace(s.WorktreeFingerprint) == "" {
		return errors.New("workstream scope has an empty repository or worktree fingerprint")
	}
	return nil
}
