package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/rank"
)

// Search finds the workstream's events matching query. An empty query lists
// the newest events, latest in conversation order first; otherwise every token must match (see QuoteFTS)
// and the newest SearchCandidates matches are ranked by bm25. limit is
// clamped to 1..100, 0 meaning 20.
func (db *DB) Search(ctx context.Context, wsID, query string, limit int) ([]ledger.Event, error) {
	limit = ledger.ClampSearchLimit(limit)
	conn, err := db.searchConn(ctx)
	if err != nil {
		return nil, err
	}
	defer db.releaseSearchConn(conn)
	sc, err := db.searchScope(ctx, conn, wsID)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(query) == "" {
		evs, _, err := db.queryEventRows(ctx, conn, wsID, false, sqlNewestEvents, sc.wsk, limit)
		ledger.SortConversation(evs)
		slices.Reverse(evs)
		return evs, err
	}
	q := QuoteFTS(query)
	if q == "" {
		return nil, nil // only punctuation: nothing the index could match
	}
	r := rank.NewRanker(query)
	if sc.dominant() {
		err = db.candidates(ctx, conn, r, sqlSearchCandidatesByRow, "content : ("+q+")", ledger.SearchCandidates, sc.wsk)
	} else {
		err = db.candidates(ctx, conn, r, sqlSearchCandidates, fmt.Sprintf(`ws : "w%d" AND content : (%s)`, sc.wsk, q), ledger.SearchCandidates)
	}
	if err != nil {
		return nil, err
	}
	return db.eventsByRid(ctx, conn, wsID, r.Top(limit))
}

// searchCachePages is the page cache of a connection while it searches. A
// search reads each page about once (the candidates' rows are scattered over
// the table), so a cache only costs: in a fresh process (every
// `ai-memory workstream-search`) the default 2 MB cache allocates and zeroes
// a buffer per page read and frees them all at close. 32 pages cut the
// CPU time of a CLI search for two mid-frequency words at 1M events by
// ~25 % (151 -> 116 ms, three interleaved rounds at load ~26); searches in
// a long-lived process measured the same either way.
const searchCachePages = 32

// searchConn takes a connection from the pool for one search with the small
// search page cache; releaseSearchConn gives the connection its default
// cache back (a writer needs room for a batch's dirty pages) and returns it.
func (db *DB) searchConn(ctx context.Context) (*sql.Conn, error) {
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return nil, db.wrap(err, "search")
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA cache_size = %d", searchCachePages)); err != nil {
		conn.Close()
		return nil, db.wrap(err, "search")
	}
	return conn, nil
}

func (db *DB) releaseSearchConn(conn *sql.Conn) {
	conn.ExecContext(context.Background(), sqlDefaultCacheSize)
	conn.Close()
}

// searchScope is a workstream's share of the ledger, which decides how a
// search is scoped to it.
type searchScope struct {
	wsk, events, total int64
}

// dominant reports whether the workstream holds at least half of the
// ledger's events. Then its "w<wsk>" FTS term is in (nearly) every row and
// scoping inside the index costs more than it saves (one big workstream:
// 30 ms instead of 1 ms for a rare 2-word query at 1M events); filtering
// the matches by their row reads at most twice the candidates instead.
func (s searchScope) dominant() bool { return s.events*2 >= s.total }

func (db *DB) searchScope(ctx context.Context, q querier, wsID string) (searchScope, error) {
	var s searchScope
	err := q.QueryRowContext(ctx, sqlSearchScope, wsID).Scan(&s.wsk, &s.events, &s.total)
	return s, db.notFound(err, wsID, "read workstream")
}

// candidates runs a candidate query (rowid and content of the newest
// matches, at most SearchCandidates) and counts each candidate into r as
// it is read: packed contents are unpacked into one reused buffer, and no
// content outlives its row.
func (db *DB) candidates(ctx context.Context, q querier, r *rank.Ranker, query string, args ...any) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return db.wrap(err, "search")
	}
	defer rows.Close()
	var buf []byte
	for rows.Next() {
		var key int64
		var content any
		if err := rows.Scan(&key, &content); err != nil {
			return db.wrap(err, "search")
		}
		plain, packed, err := textOf(buf, content)
		switch {
		case err != nil:
			return db.wrap(err, "search")
		case packed != nil:
			buf = packed
			r.AddBytes(key, packed)
		default:
			r.Add(key, plain)
		}
	}
	return db.wrap(rows.Err(), "search")
}

// eventsByRid loads the events with those rowids, in the given order.
func (db *DB) eventsByRid(ctx context.Context, conn querier, wsID string, rids []int64) ([]ledger.Event, error) {
	if len(rids) == 0 {
		return nil, nil
	}
	args := make([]any, len(rids))
	pos := make(map[int64]int, len(rids))
	for i, r := range rids {
		args[i], pos[r] = r, i
	}
	q := sqlEventsByRidPrefix + strings.Repeat(",?", len(rids))[1:] + ")"
	evs, got, err := db.queryEventRows(ctx, conn, wsID, true, q, args...)
	if err != nil {
		return nil, err
	}
	out := make([]ledger.Event, len(rids))
	for i, e := range evs {
		out[pos[got[i]]] = e
	}
	return out, nil
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
		if strings.IndexFunc(tok, rank.IsTokenRune) < 0 {
			continue
		}
		parts = append(parts, `"`+strings.ReplaceAll(tok, `"`, `""`)+`"`)
	}
	return strings.Join(parts, " AND ")
}
