package sqlite

import (
	"context"
	"testing"

	"github.com/ai-memory/ai-memory/ledger"
)

func TestQuoteFTS(t *testing.T) {
	tests := map[string]string{
		"":               "",
		"foo":            `"foo"`,
		"ai-memory":      `"ai-memory"`,
		"error: foo":     `"error:" AND "foo"`,
		"foo.bar":        `"foo.bar"`,
		"C++":            `"C++"`,
		`"unbalanced`:    `"""unbalanced"`,
		"NEAR(":          `"NEAR("`,
		"*":              "",
		"a * b":          `"a" AND "b"`,
		"  café   OR ":   `"café" AND "OR"`,
		`say "hi" now`:   `"say" AND """hi""" AND "now"`,
		"col:val AND -x": `"col:val" AND "AND" AND "-x"`,
	}
	for in, want := range tests {
		if got := QuoteFTS(in); got != want {
			t.Errorf("QuoteFTS(%q) = %s; want %s", in, got, want)
		}
	}
}

// TestSearchRestoresPageCache: a search runs with the small search page
// cache and gives its connection back with the default one, so a batch
// appended on that connection later has room for its dirty pages.
func TestSearchRestoresPageCache(t *testing.T) {
	db, _ := openTest(t)
	db.sql.SetMaxOpenConns(1) // every statement below uses the one connection
	ws := mustWorkstream(t, db, "cache")
	mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: msgs("s1", 0, 30, "cache probe")})
	for _, q := range []string{"probe", ""} {
		evs, err := db.Search(context.Background(), ws.ID, q, 5)
		if err != nil || len(evs) != 5 {
			t.Fatalf("Search(%q) = %d events, %v; want 5", q, len(evs), err)
		}
		var pages int
		must(t, db.sql.QueryRow(`PRAGMA cache_size`).Scan(&pages))
		if pages != -2000 {
			t.Errorf("after Search(%q) the connection's cache_size is %d; want the default -2000", q, pages)
		}
	}
}
