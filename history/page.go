package history

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/ai-memory/ai-memory/ledger"
)

// PageSize is how many events one timeline page holds.
const PageSize = 200

// ErrNoSession is returned for a run id the workstream does not have.
var ErrNoSession = errors.New("no such session")

func errNoSession(runID string) error {
	return fmt.Errorf("%w %q in this workstream; list them with `ai-memory log`", ErrNoSession, runID)
}

func itoa(n int) string { return strconv.Itoa(n) }

// Page is one page of a timeline's events (a sequence range), in
// conversation order (ledger.SortConversation).
type Page struct {
	After  int64          // events have sequence > After
	Events []ledger.Event // at most PageSize
	Last   int64          // the workstream's latest sequence when read
}

// Earlier is the After of the previous page, or -1 on the first page.
func (p Page) Earlier() int64 {
	if p.After <= 0 {
		return -1
	}
	return max(0, p.After-PageSize)
}

// Later is the After of the next page, or -1 when this page reaches Last.
func (p Page) Later() int64 {
	if n := p.After + int64(len(p.Events)); n < p.Last && len(p.Events) > 0 {
		return p.Newest()
	}
	return -1
}

// Newest is the page's highest sequence (After when empty).
func (p Page) Newest() int64 {
	n := p.After
	for _, e := range p.Events {
		n = max(n, e.Sequence)
	}
	return n
}

// LoadPage reads the events after `after`; after < 0 means the newest page.
func LoadPage(ctx context.Context, db ledger.Ledger, wsID string, after int64) (Page, error) {
	last, err := db.LatestSequence(ctx, wsID)
	if err != nil {
		return Page{}, err
	}
	if after < 0 {
		after = max(0, last-PageSize)
	}
	evs, err := db.EventsAfter(ctx, wsID, after, last, PageSize)
	ledger.SortConversation(evs)
	return Page{After: after, Events: evs, Last: last}, err
}

// Fragment is a piece of highlighted text.
type Fragment struct {
	Text  string
	Match bool
}

// Highlight splits cleaned text into fragments, marking the words that match
// a query term the way the full-text index does (whole tokens, letters and
// digits, case-insensitive).
func Highlight(text, query string) []Fragment {
	terms := map[string]bool{}
	for _, w := range words(strings.ToLower(query)) {
		terms[w.text] = true
	}
	text = Clean(text)
	var out []Fragment
	pos := 0
	for _, w := range words(text) {
		if !terms[strings.ToLower(w.text)] {
			continue
		}
		if w.start > pos {
			out = append(out, Fragment{Text: text[pos:w.start]})
		}
		out = append(out, Fragment{Text: w.text, Match: true})
		pos = w.start + len(w.text)
	}
	if pos < len(text) {
		out = append(out, Fragment{Text: text[pos:]})
	}
	return out
}

type word struct {
	text  string
	start int
}

// words splits s into the index's tokens: runs of letters and digits.
func words(s string) []word {
	var out []word
	start := -1
	for i, r := range s {
		tok := unicode.IsLetter(r) || unicode.IsNumber(r)
		if tok && start < 0 {
			start = i
		} else if !tok && start >= 0 {
			out = append(out, word{s[start:i], start})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, word{s[start:], start})
	}
	return out
}
