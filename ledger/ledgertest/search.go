package ledgertest

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/ledger"
)

// testSearch_Corpus runs user input that breaks raw FTS5 syntax: every
// query must succeed, and the text ones must find their event.
func testSearch_Corpus(t *testing.T, be Backend) {
	ctx := context.Background()
	db, _ := openTest(t, be)
	ws := mustWorkstream(t, db, "w")
	texts := []string{
		"install ai-memory from source",
		"got error: foo while building",
		"call foo.bar on the client",
		"rewrite it in C++ later",
		`a "quoted" word and NEAR( parenthesis`,
		"unrelated note about cafés",
		"rename foo_bar to baz_qux",
		"bar then foo, never adjacent",
		`path C:\Users\o'brien\notes`,
		"long " + strings.Repeat("x", 3000) + " token",
		"日本語のテキスト and ÉTÉ",
	}
	var in []ledger.EventInput
	for i, s := range texts {
		in = append(in, ledger.EventInput{Harness: "claude", SourceRecordID: fmt.Sprint(i), Kind: ledger.KindMessage, Content: s})
	}
	mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: in})
	tests := []struct {
		q    string
		want []int64 // sequences, in rank order where it matters
	}{
		{"ai-memory", []int64{1}},
		{"error: foo", []int64{2}},
		{"foo.bar", []int64{7, 3}}, // foo then bar: foo_bar too
		{"C++", []int64{4, 9}},     // the token c: C:\\ too
		{`"unbalanced`, nil},
		{`"quoted`, []int64{5}},
		{"NEAR(", []int64{5}},
		{"*", nil},
		{"cafes", []int64{6}}, // remove_diacritics
		{"AND OR NOT", nil},
		// Identifiers are phrases of their tokens: foo_bar is foo then bar,
		// as foo.bar is; "bar then foo" has both, not adjacent.
		{"foo_bar", []int64{7, 3}},
		{"FOO_BAR baz_qux", []int64{7}},
		{"bar_foo", nil},
		{"foo bar", []int64{8, 7, 3}},
		{`o'brien`, []int64{9}},
		{`C:\Users`, []int64{9}},
		{`\ ' '' \'`, nil},
		{strings.Repeat("x", 3000), []int64{10}},
		{"日本語のテキスト", []int64{11}},
		{"ete", []int64{11}},
		{"NOT foo_bar", nil},
		{"foo:* | bar & !baz <-> (", []int64{7}}, // foo, bar, baz: tsquery syntax is text
	}
	for _, tt := range tests {
		evs, err := db.Search(ctx, ws.ID, tt.q, 10)
		if err != nil {
			t.Errorf("Search(%q) failed: %v", tt.q, err)
			continue
		}
		var got []int64
		for _, e := range evs {
			got = append(got, e.Sequence)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Search(%q) = %v; want %v", tt.q, got, tt.want)
		}
	}
}

func testSearch_ScopeOrderAndLimits(t *testing.T, be Backend) {
	ctx := context.Background()
	db, _ := openTest(t, be)
	a, b := mustWorkstream(t, db, "a"), mustWorkstream(t, db, "b")
	mustAppend(t, db, ledger.Batch{WorkstreamID: a.ID, Events: msgs("s", 0, 150, "shared needle")})
	mustAppend(t, db, ledger.Batch{WorkstreamID: b.ID, Events: msgs("s", 0, 5, "shared needle")})
	// "w<wsk>" tokens inside content must not leak across the column filter.
	mustAppend(t, db, ledger.Batch{WorkstreamID: b.ID, Events: []ledger.EventInput{{Harness: "claude", Kind: ledger.KindMessage, Content: "w1 w2 w3"}}})
	tests := []struct {
		ws    ledger.Workstream
		q     string
		limit int
		n     int
		first int64
	}{
		{a, "", 0, ledger.DefaultSearchLimit, 150},
		{a, "", 1000, ledger.MaxSearchLimit, 150},
		{a, "", -5, 1, 150},
		{b, "needle", 0, 5, 0},
		{b, "shared needle", 3, 3, 0},
		{a, "w1", 0, 0, 0},
		{b, "w1", 0, 1, 6},
		{b, "absent", 0, 0, 0},
	}
	for _, tt := range tests {
		evs, err := db.Search(ctx, tt.ws.ID, tt.q, tt.limit)
		if err != nil || len(evs) != tt.n {
			t.Errorf("Search(%s, %q, %d) = %d events, %v; want %d", tt.ws.Name, tt.q, tt.limit, len(evs), err, tt.n)
			continue
		}
		for _, e := range evs {
			if e.WorkstreamID != tt.ws.ID {
				t.Errorf("Search(%s, %q) returned an event of another workstream", tt.ws.Name, tt.q)
			}
		}
		if tt.first != 0 && evs[0].Sequence != tt.first {
			t.Errorf("Search(%s, %q) first = %d; want %d", tt.ws.Name, tt.q, evs[0].Sequence, tt.first)
		}
	}
}

func testSearch_RanksByRelevance(t *testing.T, be Backend) {
	ctx := context.Background()
	db, _ := openTest(t, be)
	ws := mustWorkstream(t, db, "w")
	in := []ledger.EventInput{
		{Harness: "claude", SourceRecordID: "1", Kind: ledger.KindMessage, Content: "lease renewal lease renewal lease heartbeat"},
		{Harness: "claude", SourceRecordID: "2", Kind: ledger.KindMessage, Content: "a long unrelated paragraph that mentions the lease once among many many other words here"},
	}
	mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: in})
	evs, err := db.Search(ctx, ws.ID, "lease", 10)
	if err != nil || len(evs) != 2 || evs[0].Sequence != 1 {
		t.Fatalf("ranked search = %v, %v; want the dense match first", evs, err)
	}
}
