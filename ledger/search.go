package ledger

import (
	"context"
	"fmt"
	"strings"
	"unicode"
)

// Search limits.
const (
	DefaultSearchLimit = 20
	MaxSearchLimit     = 100
	// SearchCandidates bounds ranking to the newest matches of the
	// workstream, which keeps any 2-word query fast at 1M events.
	SearchCandidates = 2000
)

// Search finds the workstream's events matching query. An empty query lists
// the newest events first; otherwise every token must match (see QuoteFTS)
// and the newest SearchCandidates matches are ranked by bm25. limit is
// clamped to 1..100, 0 meaning 20.
func (db *DB) Search(ctx context.Context, wsID, query string, limit int) ([]Event, error) {
	limit = clampLimit(limit)
	wsk, err := db.wsKey(ctx, wsID)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(query) == "" {
		return db.queryEvents(ctx, wsID, sqlNewestEvents, wsk, limit)
	}
	q := QuoteFTS(query)
	if q == "" {
		return nil, nil // only punctuation: nothing the index could match
	}
	match := fmt.Sprintf(`ws : "w%d" AND content : (%s)`, wsk, q)
	cands, err := db.candidates(ctx, match)
	if err != nil {
		return nil, err
	}
	return db.eventsByRid(ctx, wsID, rankCandidates(cands, query, limit))
}

// candidates returns the newest SearchCandidates matches with their content.
func (db *DB) candidates(ctx context.Context, match string) ([]candidate, error) {
	rows, err := db.sql.QueryContext(ctx, sqlSearchCandidates, match, SearchCandidates)
	if err != nil {
		return nil, db.wrap(err, "search")
	}
	defer rows.Close()
	var out []candidate
	for rows.Next() {
		var c candidate
		if err := rows.Scan(&c.rid, &c.content); err != nil {
			return nil, db.wrap(err, "search")
		}
		out = append(out, c)
	}
	return out, db.wrap(rows.Err(), "search")
}

// eventsByRid loads the events with those rowids, in the given order.
func (db *DB) eventsByRid(ctx context.Context, wsID string, rids []int64) ([]Event, error) {
	if len(rids) == 0 {
		return nil, nil
	}
	args := make([]any, len(rids))
	pos := make(map[int64]int, len(rids))
	for i, r := range rids {
		args[i], pos[r] = r, i
	}
	q := sqlEventsByRidPrefix + strings.Repeat(",?", len(rids))[1:] + ")"
	evs, err := db.queryEvents(ctx, wsID, q, args...)
	if err != nil {
		return nil, err
	}
	out := make([]Event, len(rids))
	for _, e := range evs {
		out[pos[e.rid]] = e
	}
	return out, nil
}

func clampLimit(limit int) int {
	switch {
	case limit == 0:
		return DefaultSearchLimit
	case limit < 1:
		return 1
	case limit > MaxSearchLimit:
		return MaxSearchLimit
	}
	return limit
}

// QuoteFTS turns free text into a safe FTS5 expression: every
// whitespace-separated token becomes an FTS5 string (inner quotes doubled)
// and the strings are ANDed. So `ai-memory`, `error: foo`, `foo.bar`, `C++`,
// `NEAR(` or a stray quote are searched as text, never parsed as syntax.
// Tokens without a letter or digit (which the unicode61 tokenizer would turn
// into an empty phrase) are dropped; "" means nothing searchable is left.
func QuoteFTS(query string) string {
	var parts []string
	for _, tok := range strings.Fields(query) {
		if strings.IndexFunc(tok, isTokenRune) < 0 {
			continue
		}
		parts = append(parts, `"`+strings.ReplaceAll(tok, `"`, `""`)+`"`)
	}
	return strings.Join(parts, " AND ")
}

// isTokenRune mirrors unicode61's token characters: letters, numbers and
// private-use code points.
func isTokenRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r)
}
