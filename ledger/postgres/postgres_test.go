package postgres

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/rank"
)

func TestTSVectorAndQuery(t *testing.T) {
	tests := []struct{ content, want string }{
		{"", ""},
		{"Foo_bar foo", "'bar':2 'foo':1,3"},
		{"C++ and ai-memory", "'ai':3 'and':2 'c':1 'memory':4"},
		{"b a b a2 b", "'a':2 'a2':4 'b':1,3,5"},
		{"Café ÉTÉ", "'cafe':1 'ete':2"},
		{strings.Repeat("é", 1100), "'" + strings.Repeat("e", 1100) + "':1"},
		{strings.Repeat("ß", 1100), "'" + strings.Repeat("ß", 1023) + "':1"}, // 2046 bytes, cut on a rune
	}
	for _, tt := range tests {
		if got := tsvectorOf(tt.content).String(); got != tt.want {
			t.Errorf("tsvectorOf(%.30q) = %.60q; want %.60q", tt.content, got, tt.want)
		}
	}
	queries := map[string]string{
		"":                  "",
		"*  ( ) |":          "",
		"foo_bar":           "('foo' <-> 'bar')",
		"C++ x":             "('c') & ('x')",
		`o'brien \ 'x'`:     "('o' <-> 'brien') & ('x')",
		"foo:* & !bar <->(": "('foo') & ('bar')",
	}
	for q, want := range queries {
		if got := TSQuery(q); got != want {
			t.Errorf("TSQuery(%q) = %q; want %q", q, got, want)
		}
	}
}

// The binary form is taken as sent: the server refuses positions out of
// order and does not merge repeated lexemes (the text parser did both), so
// every document must already be what it stores.
func FuzzTSVectorOf(f *testing.F) {
	f.Add("Foo_bar foo C++ ai-memory")
	f.Add(strings.Repeat("a ", 17000) + "b")
	f.Add(strings.Repeat("ß", 1100) + " x\x00 'q' \\")
	f.Fuzz(func(t *testing.T, content string) {
		doc := tsvectorOf(content)
		if !doc.Valid {
			t.Fatal("document not valid (it would be NULL)")
		}
		// Every token's position is kept, up to a lexeme's first
		// maxPositions distinct ones.
		want := map[string][]uint16{}
		for i, tok := range rank.Tokens(content) {
			tok, pos := clampLexeme(tok), uint16(min(i+1, maxPosition))
			if ps := want[tok]; len(ps) < maxPositions && (len(ps) == 0 || ps[len(ps)-1] != pos) {
				want[tok] = append(ps, pos)
			}
		}
		if len(doc.Lexemes) != len(want) {
			t.Fatalf("%d lexemes; want %d", len(doc.Lexemes), len(want))
		}
		for _, lex := range doc.Lexemes {
			var got []uint16
			for _, p := range lex.Positions {
				got = append(got, p.Position)
			}
			if !slices.Equal(got, want[lex.Word]) {
				t.Fatalf("lexeme %.40q at %v; want %v", lex.Word, got, want[lex.Word])
			}
		}
		for i, lex := range doc.Lexemes {
			if lex.Word == "" || len(lex.Word) > maxLexeme || strings.IndexByte(lex.Word, 0) >= 0 {
				t.Fatalf("lexeme %d %.40q: empty, over %d bytes or holds NUL", i, lex.Word, maxLexeme)
			}
			if i > 0 && doc.Lexemes[i-1].Word >= lex.Word {
				t.Fatalf("lexemes %.40q, %.40q out of order or repeated", doc.Lexemes[i-1].Word, lex.Word)
			}
			if n := len(lex.Positions); n == 0 || n > maxPositions {
				t.Fatalf("lexeme %.40q has %d positions", lex.Word, n)
			}
			for j, p := range lex.Positions {
				if p.Position < 1 || p.Position > maxPosition || j > 0 && p.Position <= lex.Positions[j-1].Position {
					t.Fatalf("lexeme %.40q: positions %v", lex.Word, lex.Positions)
				}
			}
		}
	})
}

// Positions past PostgreSQL's last (16383) and repeats past 256 are dropped
// by the document, never refused by the server.
func TestSearch_HugeDocumentIsStored(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	ws, err := db.SelectWorkstream(ctx, ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w"}, ledger.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	content := strings.Repeat("word ", 300) + strings.Repeat("a ", 17000) + "needle" // under MaxContentBytes
	if _, err := db.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, Events: []ledger.EventInput{
		{Harness: "claude", SourceRecordID: "1", Kind: ledger.KindMessage, Content: content}}}); err != nil {
		t.Fatalf("Append: %v", err)
	}
	if evs, err := db.Search(ctx, ws.ID, "needle word", 5); err != nil || len(evs) != 1 {
		t.Fatalf("Search = %d, %v; want the event", len(evs), err)
	}
}

func TestMigrations_OrderedAndRefuseNewer(t *testing.T) {
	ctx := context.Background()
	loc := freshSchema(t)
	home := t.TempDir()
	db, err := Open(ctx, ledger.Where{Home: home, Location: loc})
	if err != nil {
		t.Fatal(err)
	}
	if db.SchemaVersion() != KnownSchemaVersion() || KnownSchemaVersion() < 1 {
		t.Fatalf("schema %d; want %d", db.SchemaVersion(), KnownSchemaVersion())
	}
	ms, _ := migrations()
	for i := 1; i < len(ms); i++ {
		if ms[i].version <= ms[i-1].version {
			t.Fatalf("migrations out of order: %s after %s", ms[i].name, ms[i-1].name)
		}
	}
	db.Close()
	// Reopening applies nothing; several processes at once too.
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := Open(ctx, ledger.Where{Home: home, Location: loc})
			if err == nil {
				d.Close()
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("reopen: %v", err)
		}
	}
	conn, err := pgx.Connect(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `INSERT INTO schema_version (version) VALUES ($1)`, KnownSchemaVersion()+1); err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, ledger.Where{Home: home, Location: loc})
	if !errors.Is(err, ledger.ErrSchemaTooNew) || !strings.Contains(err.Error(), "upgrade ai-memory") {
		t.Fatalf("Open of a newer schema = %v; want ErrSchemaTooNew saying to upgrade", err)
	}
	chk, err := OpenForCheck(ctx, ledger.Where{Home: home, Location: loc})
	if err != nil || chk.SchemaVersion() != KnownSchemaVersion()+1 {
		t.Fatalf("OpenForCheck = %v; want it to read schema %d", err, KnownSchemaVersion()+1)
	}
	chk.Close()
}

// The password never shows: not in Location, not in errors.
func TestPasswordNeverShown(t *testing.T) {
	ctx := context.Background()
	loc := freshSchema(t)
	u0, _ := url.Parse(loc)
	pw, _ := u0.User.Password()
	if pw == "" {
		t.Skip("the test server URL has no password")
	}
	db, err := Open(ctx, ledger.Where{Home: t.TempDir(), Location: loc})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if strings.Contains(db.Location(), pw) {
		t.Fatalf("Location %q shows the password", db.Location())
	}
	h, err := db.Health(ctx, ledger.HealthOptions{})
	if err != nil || strings.Contains(fmt.Sprint(h), pw) {
		t.Fatalf("Health = %+v, %v; want no password", h, err)
	}
	bad := strings.Replace(loc, ":"+pw+"@", ":"+pw+"x@", 1)
	_, err = Open(ctx, ledger.Where{Home: t.TempDir(), Location: bad})
	if !errors.Is(err, ledger.ErrUnavailable) || strings.Contains(err.Error(), pw) || !strings.Contains(err.Error(), "refused the login") {
		t.Fatalf("Open with a wrong password = %v; want ErrUnavailable saying the login was refused, without the password", err)
	}
	u, _ := url.Parse(bad)
	u.Host = "127.0.0.1:1" // nothing listens there
	_, err = Open(ctx, ledger.Where{Home: t.TempDir(), Location: u.String()})
	if !errors.Is(err, ledger.ErrUnavailable) || strings.Contains(err.Error(), pw) || !strings.Contains(err.Error(), "unreachable") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("Open of an unreachable server = %v; want one line saying so, without the password", err)
	}
}

// Two machines (two pools) appending to one workstream at once get dense,
// distinct sequences, and a replay from either stores nothing twice.
func TestAppend_TwoMachinesOneWorkstream(t *testing.T) {
	ctx := context.Background()
	loc := freshSchema(t)
	a, err := Open(ctx, ledger.Where{Home: t.TempDir(), Location: loc})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, ledger.Where{Home: t.TempDir(), Location: loc})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// Both merge the search index after every batch, concurrently with
	// each other's inserts (merger).
	a.merge.every, b.merge.every = 1, 1
	ws, err := a.SelectWorkstream(ctx, ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w"}, ledger.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	const writers, batches, per = 4, 10, 5
	var wg sync.WaitGroup
	errs := make(chan error, writers*batches*2)
	for w := range writers {
		db := []*DB{a, b}[w%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range batches {
				var evs []ledger.EventInput
				for j := range per {
					evs = append(evs, ledger.EventInput{Harness: "claude", NativeSessionID: fmt.Sprint("s", w),
						SourceRecordID: fmt.Sprint(i, "-", j), Kind: ledger.KindMessage, Content: fmt.Sprint("writer ", w, " batch ", i)})
				}
				for range 2 { // the second is a replay
					_, err := db.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, Events: evs})
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	evs, err := b.EventsAfter(ctx, ws.ID, 0, 1<<40, 0)
	if err != nil || len(evs) != writers*batches*per {
		t.Fatalf("EventsAfter = %d, %v; want %d", len(evs), err, writers*batches*per)
	}
	for i, e := range evs {
		if e.Sequence != int64(i+1) {
			t.Fatalf("event %d has sequence %d; want dense sequences", i, e.Sequence)
		}
	}
}

// TestSearch_WindowThenIndex: the three ways to find candidates (the whole
// workstream in the window; a small window, then the index; the index
// first when the table's statistics favour it) give the same results.
func TestSearch_WindowThenIndex(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	ws, err := db.SelectWorkstream(ctx, ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w"}, ledger.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	var evs []ledger.EventInput
	for i := range 60 {
		text := fmt.Sprintf("filler %d", i)
		if i%7 == 0 {
			text = fmt.Sprintf("rare needle %d", i)
		}
		evs = append(evs, ledger.EventInput{Harness: "claude", SourceRecordID: fmt.Sprint(i), Kind: ledger.KindMessage, Content: text})
	}
	if _, err := db.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, Events: evs}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.pool.Exec(ctx, `ANALYZE events`); err != nil { // statistics for indexFirst
		t.Fatal(err)
	}
	search := func(window, big int64, q string) []int64 {
		t.Helper()
		oldWindow, oldBig := searchWindow, bigWorkstream
		searchWindow, bigWorkstream = window, big
		defer func() { searchWindow, bigWorkstream = oldWindow, oldBig }()
		got, err := db.Search(ctx, ws.ID, q, 100)
		if err != nil {
			t.Fatal(err)
		}
		var seqs []int64
		for _, e := range got {
			seqs = append(seqs, e.Sequence)
		}
		return seqs
	}
	const never = 1 << 40
	for _, q := range []string{"rare needle", "filler", "needle 56", "absent", "ABSENT needle"} {
		whole, small, weighed := search(1000, never, q), search(5, never, q), search(1000, 0, q)
		if fmt.Sprint(whole) != fmt.Sprint(small) || fmt.Sprint(whole) != fmt.Sprint(weighed) {
			t.Errorf("Search(%q) = %v with the whole workstream in the window, %v with a 5-event window, %v weighed by statistics", q, whole, small, weighed)
		}
	}
	if got := search(5, never, "rare needle"); len(got) != 9 {
		t.Errorf("Search(rare needle) = %v; want the 9 events", got)
	}
}

// TestRarestEstimate: no frequency before the table has statistics; after
// ANALYZE a rare token's is below a common one's, a query's is its rarest
// token's, and the row count is the table's.
func TestRarestEstimate(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	ws, err := db.SelectWorkstream(ctx, ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w"}, ledger.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	estimate := func(toks ...string) (*float64, float64) {
		t.Helper()
		var freq *float64
		var rows float64
		if err := db.pool.QueryRow(ctx, sqlRarestEstimate, toks).Scan(&freq, &rows); err != nil {
			t.Fatal(err)
		}
		return freq, rows
	}
	if freq, _ := estimate("common"); freq != nil {
		t.Fatalf("frequency without statistics = %v, want NULL", *freq)
	}
	var evs []ledger.EventInput
	for i := range 300 {
		text := fmt.Sprintf("common word %d", i)
		if i == 0 {
			text = "common unique"
		}
		evs = append(evs, ledger.EventInput{Harness: "claude", SourceRecordID: fmt.Sprint(i), Kind: ledger.KindMessage, Content: text})
	}
	if _, err := db.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, Events: evs}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.pool.Exec(ctx, `ANALYZE events`); err != nil {
		t.Fatal(err)
	}
	common, rows := estimate("common")
	rare, _ := estimate("unique")
	both, _ := estimate("common", "unique")
	if common == nil || rare == nil || both == nil {
		t.Fatalf("frequencies after ANALYZE = %v %v %v, want numbers", common, rare, both)
	}
	if *common < 0.9 || *rare >= *common || *both != *rare || rows != 300 {
		t.Errorf("common %v, unique %v, both %v, rows %v; want common ~1, unique below it, both = unique, 300 rows", *common, *rare, *both, rows)
	}
}

// TestIndexFirst: the index goes first for tokens rare enough against
// what the window would read, and never for common ones or without
// statistics.
func TestIndexFirst(t *testing.T) {
	tests := []struct {
		name       string
		freq, rows float64
		size       int64
		want       bool
	}{
		{"no statistics", 0, 0, 50_000, false},
		{"one 20k workstream, rare token", 0.005, 20_000, 20_000, true},
		{"one 20k workstream, mid token", 0.027, 20_000, 20_000, true},
		{"one 20k workstream, top token", 0.5, 20_000, 20_000, false},
		{"1M in one workstream, common token", 0.3, 1e6, 1_000_000, false},
		{"50k workstream of a 1M ledger, rare token", 0.007, 1e6, 50_000, true},
		{"50k workstream of a 1M ledger, common token", 0.3, 1e6, 50_000, false},
	}
	for _, tt := range tests {
		if got := indexFirst(tt.freq, tt.rows, tt.size); got != tt.want {
			t.Errorf("%s: indexFirst(%v, %v, %d) = %v, want %v", tt.name, tt.freq, tt.rows, tt.size, got, tt.want)
		}
	}
}
