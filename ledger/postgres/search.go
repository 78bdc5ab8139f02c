package postgres

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/rank"
)

// Search finds the workstream's events matching query, with the SQLite
// backend's semantics: an empty query lists the newest events, latest in
// conversation order first; otherwise every whitespace-separated word must
// match as a phrase of its tokens (so `foo_bar` is foo followed by bar, and
// `ai-memory` ai followed by memory), and the newest SearchCandidates
// matches are ranked by ledger/rank. limit is ledger.ClampSearchLimit's.
// Any input is safe: the tsquery is built here from tokens, never parsed
// from the user's text. Its statements with joins or a window run
// prepared: a process that searches more than once (the MCP server, the
// web UI, a benchmark) plans them once instead of on every search, which
// the default one-round-trip mode would (connect).
func (db *DB) Search(ctx context.Context, wsID, query string, limit int) ([]ledger.Event, error) {
	limit = ledger.ClampSearchLimit(limit)
	if strings.TrimSpace(query) == "" {
		return db.newest(ctx, wsID, limit)
	}
	var wsk, size int64
	err := db.pool.QueryRow(ctx, sqlWorkstreamSize, prepared, wsID).Scan(&wsk, &size)
	if err != nil {
		return nil, db.notFound(err, wsID, "read workstream")
	}
	q := TSQuery(query)
	if q == "" {
		return nil, nil // only punctuation: nothing the index could match
	}
	r, err := db.searchCandidates(ctx, wsk, size, query, q)
	if err != nil {
		return nil, err
	}
	return db.eventsBySequence(ctx, wsID, wsk, r.Top(limit))
}

// newest lists the workstream's newest events, latest in conversation
// order first, in one statement that looks the workstream's key up itself;
// only when it returns nothing does a second one tell an empty workstream
// from a missing one.
func (db *DB) newest(ctx context.Context, wsID string, limit int) ([]ledger.Event, error) {
	evs, err := db.queryEvents(ctx, wsID, sqlNewestEventsOf, prepared, wsID, limit)
	if err != nil {
		return nil, err
	}
	if len(evs) == 0 {
		_, err := db.wsKey(ctx, wsID)
		return nil, err
	}
	ledger.SortConversation(evs)
	slices.Reverse(evs)
	return evs, nil
}

// searchCandidates finds the newest SearchCandidates matches, as on
// SQLite, one of two ways: a scan of the workstream's newest events (the
// window), or the GIN index. A small workstream is scanned (bounded and
// cheap); in a big one indexFirst weighs the two with the planner's
// statistics; when the window goes first and holds too few matches in a
// workstream bigger than it, the index searches the whole workstream
// again. The candidates come back counted into a ranker.
func (db *DB) searchCandidates(ctx context.Context, wsk, size int64, query, q string) (*rank.Ranker, error) {
	if size > bigWorkstream {
		var freq *float64 // nil: no statistics yet
		var rows float64
		if err := db.pool.QueryRow(ctx, sqlRarestEstimate, prepared, queryTokens(query)).Scan(&freq, &rows); err != nil {
			return nil, db.wrap(err, "search")
		}
		if freq != nil && indexFirst(*freq, rows, size) {
			return db.candidates(ctx, query, sqlSearchCandidates, prepared, wsk, q, ledger.SearchCandidates)
		}
	}
	r, err := db.candidates(ctx, query, sqlSearchNewest, prepared, wsk, q, ledger.SearchCandidates, searchWindow)
	if err == nil && r.Len() < ledger.SearchCandidates && size > searchWindow {
		r, err = db.candidates(ctx, query, sqlSearchCandidates, prepared, wsk, q, ledger.SearchCandidates)
	}
	return r, err
}

// indexFirst reports whether the index is the cheaper way for a query
// whose rarest token is in the fraction freq of the ledger's rows events,
// in a workstream of size events. The index reads the token's posting list
// (documents of the whole ledger, indexEntryCost each) and fetches the
// workstream's matches (one row each, about size/rows of them). The window
// reads rows until SearchCandidates matches, at most the window: few for a
// common token, all of it for a rare one. Costs are in rows read.
func indexFirst(freq, rows float64, size int64) bool {
	if freq <= 0 || rows <= 0 {
		return false
	}
	docs := freq * rows
	index := docs*indexEntryCost + docs*float64(size)/rows
	window := min(float64(min(size, searchWindow)), float64(ledger.SearchCandidates)/freq)
	return index < window
}

// bigWorkstream is the size above which a search weighs the index against
// the window (scanning up to this many events costs a few ms).
var bigWorkstream int64 = 4000

// indexEntryCost is what reading one posting of the index costs against
// fetching one row (measured here: ~0.4 µs against 2-9 µs).
const indexEntryCost = 0.1

// queryTokens are the distinct tokens of the query, as TSQuery cuts them.
func queryTokens(query string) []string {
	toks := rank.Tokens(query)
	for i, t := range toks {
		toks[i] = clampLexeme(t)
	}
	slices.Sort(toks)
	return slices.Compact(toks)
}

// searchWindow is how many of a workstream's newest events a search scans
// before it turns to the index.
var searchWindow int64 = 20000

// candidates runs a candidate statement (sequence and content of matches)
// and ranks them against the user's query as they are read: each content
// is counted in the driver's buffer (DriverBytes), never copied or kept.
func (db *DB) candidates(ctx context.Context, query, stmt string, args ...any) (*rank.Ranker, error) {
	rows, err := db.pool.Query(ctx, stmt, args...)
	if err != nil {
		return nil, db.wrap(err, "search")
	}
	defer rows.Close()
	r := rank.NewRanker(query)
	for rows.Next() {
		var key int64
		var content pgtype.DriverBytes
		if err := rows.Scan(&key, &content); err != nil {
			return nil, db.wrap(err, "search")
		}
		r.AddBytes(key, content)
	}
	return r, db.wrap(rows.Err(), "search")
}

// eventsBySequence loads the events with those sequences, in that order.
func (db *DB) eventsBySequence(ctx context.Context, wsID string, wsk int64, seqs []int64) ([]ledger.Event, error) {
	if len(seqs) == 0 {
		return nil, nil
	}
	evs, err := db.queryEvents(ctx, wsID, sqlEventsBySequences, prepared, wsk, seqs)
	if err != nil {
		return nil, err
	}
	pos := make(map[int64]int, len(seqs))
	for i, s := range seqs {
		pos[s] = i
	}
	out := make([]ledger.Event, len(seqs))
	for _, e := range evs {
		out[pos[e.Sequence]] = e
	}
	return out, nil
}

// PostgreSQL's tsvector limits: a lexeme is at most 2046 bytes, positions
// run from 1 to 16383 (later ones count as 16383) and a lexeme keeps at
// most 256 of them.
const (
	maxLexeme    = 2046
	maxPosition  = 16383
	maxPositions = 256
)

// tsvectorOf is content's search document: every token of rank.Tokens
// with its positions. Building it in Go, rather than with a text search
// configuration, is what makes PostgreSQL tokenise exactly as SQLite's
// unicode61 does (no stemming, no stop words, identifiers split the same
// way), so one query corpus gives the same results on both.
//
// pgx sends it in tsvector's binary form. The server parses the text form
// character by character; that cost 60 µs a row, three quarters of an
// append's server time, against almost nothing for the binary form. The
// lexemes come in the server's order (bytewise), so it need not sort them.
func tsvectorOf(content string) pgtype.TSVector {
	toks := rank.Tokens(content)
	doc := pgtype.TSVector{Valid: true}
	if len(toks) == 0 {
		return doc
	}
	// Sort the token numbers (4 bytes each, not the tokens) by lexeme,
	// then position: each lexeme's occurrences end up together, in order.
	order := make([]int32, len(toks))
	for i := range toks {
		toks[i] = clampLexeme(toks[i])
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := strings.Compare(toks[a], toks[b]); c != 0 {
			return c
		}
		return int(a - b)
	})
	doc.Lexemes = make([]pgtype.TSVectorLexeme, 0, len(toks))
	positions := make([]pgtype.TSVectorPosition, 0, len(toks))
	for k, i := range order {
		if k == 0 || toks[i] != toks[order[k-1]] {
			doc.Lexemes = append(doc.Lexemes, pgtype.TSVectorLexeme{Word: toks[i], Positions: positions[len(positions):len(positions)]})
		}
		lex := &doc.Lexemes[len(doc.Lexemes)-1]
		pos := uint16(min(int(i)+1, maxPosition))
		if n := len(lex.Positions); n == maxPositions || (n > 0 && lex.Positions[n-1].Position == pos) {
			continue
		}
		positions = append(positions, pgtype.TSVectorPosition{Position: pos})
		lex.Positions = positions[len(positions)-len(lex.Positions)-1 : len(positions) : len(positions)]
	}
	return doc
}

// TSQuery turns free text into a tsquery with QuoteFTS's meaning on SQLite:
// each whitespace-separated word that holds a letter or digit becomes the
// phrase of its tokens ('foo' <-> 'bar'), and the phrases are ANDed. ""
// means nothing searchable is left.
func TSQuery(query string) string {
	var parts []string
	for _, word := range strings.Fields(query) {
		toks := rank.Tokens(word)
		if len(toks) == 0 {
			continue
		}
		var b strings.Builder
		b.WriteByte('(')
		for i, tok := range toks {
			if i > 0 {
				b.WriteString(" <-> ")
			}
			writeLexeme(&b, clampLexeme(tok))
		}
		b.WriteByte(')')
		parts = append(parts, b.String())
	}
	return strings.Join(parts, " & ")
}

// writeLexeme writes tok quoted for tsvector and tsquery input.
func writeLexeme(b *strings.Builder, tok string) {
	b.WriteByte('\'')
	for i := 0; i < len(tok); i++ {
		switch c := tok[i]; c {
		case '\'':
			b.WriteString("''")
		case '\\':
			b.WriteString(`\\`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
}

// clampLexeme cuts a token to the longest lexeme PostgreSQL stores, on a
// rune boundary; documents and queries cut alike, so it still matches.
func clampLexeme(tok string) string {
	if len(tok) <= maxLexeme {
		return tok
	}
	cut := maxLexeme
	for cut > 0 && !utf8.RuneStart(tok[cut]) {
		cut--
	}
	return tok[:cut]
}
