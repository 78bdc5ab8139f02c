package sqlite

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/internal/benchgen"
	"github.com/ai-memory/ai-memory/ledger/rank"
)

// TestSearch_MatchesOracle checks which events Search returns, and in what
// order, against a search done by hand on the appended contents: the
// newest SearchCandidates events holding every query term, ranked by
// rank.Rank. The ledger has a dominant workstream (the path that filters
// FTS matches by their row), a smaller one with more than SearchCandidates
// matches for common words (scoped inside the index) and a small one with
// fewer; short contents of Zipf words make many ties.
func TestSearch_MatchesOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("appends ~10,000 events")
	}
	db, _ := openTest(t)
	g := benchgen.New(3)
	sizes := map[string]int{"big": 7000, "mid": 3400, "small": 300}
	texts := map[string][]string{}
	for name, n := range sizes {
		for range n {
			texts[name] = append(texts[name], g.Content(60))
		}
		plantAtBound(texts[name], g.Word(0))
	}
	contents := appendInterleaved(t, db, texts)
	checkOracleCoverage(t, db, contents, g.Word(0))
	queries := []string{
		g.Word(0), g.Word(0) + " " + g.Word(1), g.Word(2) + " " + g.Word(4), g.Pair(5, 50), g.Pair(5, 50),
		g.Pair(50, 500), g.Word(30), g.Word(200), g.Word(3000), "QWXZ", g.Word(1) + " " + g.Word(1),
	}
	for name, ws := range contents {
		for _, q := range queries {
			for _, limit := range []int{1, 20, 100} {
				want := oracleSearch(contents[name].texts, q, limit)
				evs, err := db.Search(context.Background(), ws.id, q, limit)
				if err != nil {
					t.Fatalf("Search(%s, %q): %v", name, q, err)
				}
				got := make([]int64, len(evs))
				for i, e := range evs {
					got[i] = e.Sequence
				}
				if !slices.Equal(got, want) {
					t.Errorf("Search(%s, %q, %d) = sequences %v; want %v", name, q, limit, got, want)
				}
			}
		}
	}
}

// checkOracleCoverage makes sure the ledger exercises what the test is
// for: big takes the dominant path, mid does not, mid has more matches
// than SearchCandidates for word and small fewer.
func checkOracleCoverage(t *testing.T, db *DB, contents map[string]oracleWS, word string) {
	t.Helper()
	for name, wantDominant := range map[string]bool{"big": true, "mid": false, "small": false} {
		sc, err := db.searchScope(context.Background(), db.sql, contents[name].id)
		if err != nil || sc.dominant() != wantDominant {
			t.Fatalf("%s: dominant() = %v, %v; want %v", name, sc.dominant(), err, wantDominant)
		}
	}
	matches := func(name string) int {
		n := 0
		for _, c := range contents[name].texts {
			if containsAll(rank.Tokens(c), []string{word}) {
				n++
			}
		}
		return n
	}
	if m, s := matches("mid"), matches("small"); m <= ledger.SearchCandidates || s >= ledger.SearchCandidates || s == 0 {
		t.Fatalf("%q matches %d events of mid and %d of small; want more than %d and fewer (but some)", word, m, s, ledger.SearchCandidates)
	}
}

type oracleWS struct {
	id    string
	texts []string // content by sequence - 1
}

// plantAtBound makes the SearchCandidates-th newest content holding word
// and the one before it in time the best matches for word (word alone,
// four times): the first must be found and the second must not, so a
// candidate bound off by one cannot pass.
func plantAtBound(texts []string, word string) {
	seen := 0
	for i := len(texts) - 1; i >= 0; i-- {
		if !containsAll(rank.Tokens(texts[i]), []string{word}) {
			continue
		}
		if seen++; seen >= ledger.SearchCandidates {
			texts[i] = strings.Repeat(word+" ", 4)
		}
		if seen > ledger.SearchCandidates {
			return
		}
	}
}

// appendInterleaved appends each workstream's texts, in small batches taken
// in turn so that every workstream's rows are spread over the table.
func appendInterleaved(t *testing.T, db *DB, texts map[string][]string) map[string]oracleWS {
	t.Helper()
	out := map[string]oracleWS{}
	names := []string{"big", "mid", "small"}
	for _, n := range names {
		out[n] = oracleWS{id: mustWorkstream(t, db, n).ID}
	}
	for left := true; left; {
		left = false
		for _, n := range names {
			ws := out[n]
			k := min(70, len(texts[n])-len(ws.texts))
			if k <= 0 {
				continue
			}
			left = true
			evs := make([]ledger.EventInput, k)
			for i := range evs {
				seq := len(ws.texts) + i
				evs[i] = ledger.EventInput{Harness: "claude", NativeSessionID: "s-" + n, SourceRecordID: fmt.Sprintf("rec-%d", seq),
					Kind: ledger.KindMessage, Role: "user", OccurredAt: time.Date(2026, 3, 1, 0, 0, seq, 0, time.UTC), Content: texts[n][seq]}
			}
			mustAppend(t, db, ledger.Batch{WorkstreamID: ws.id, Events: evs})
			for _, e := range evs {
				ws.texts = append(ws.texts, e.Content)
			}
			out[n] = ws
		}
	}
	return out
}

// oracleSearch is Search's contract on one workstream's contents: the
// newest SearchCandidates contents holding every term, ranked.
func oracleSearch(texts []string, query string, limit int) []int64 {
	terms := rank.Terms(query)
	var cands []rank.Candidate
	for i := len(texts) - 1; i >= 0 && len(cands) < ledger.SearchCandidates; i-- {
		toks := rank.Tokens(texts[i])
		if !containsAll(toks, terms) {
			continue
		}
		cands = append(cands, rank.Candidate{Key: int64(i + 1), Content: texts[i]})
	}
	return rank.Rank(cands, query, limit)
}

func containsAll(toks, terms []string) bool {
	for _, t := range terms {
		if !slices.Contains(toks, t) {
			return false
		}
	}
	return true
}
