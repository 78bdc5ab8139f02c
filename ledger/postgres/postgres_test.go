package postgres

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ai-memory/ai-memory/ledger"
)

func TestTSVectorAndQuery(t *testing.T) {
	tests := []struct{ content, want string }{
		{"", ""},
		{"Foo_bar foo", "'foo':1,3 'bar':2"},
		{"C++ and ai-memory", "'c':1 'and':2 'ai':3 'memory':4"},
		{"Café ÉTÉ", "'cafe':1 'ete':2"},
		{strings.Repeat("é", 1100), "'" + strings.Repeat("e", 1100) + "':1"},
		{strings.Repeat("ß", 1100), "'" + strings.Repeat("ß", 1023) + "':1"}, // 2046 bytes, cut on a rune
	}
	for _, tt := range tests {
		if got := tsvectorOf(tt.content); got != tt.want {
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

// Both ways to find candidates (the newest window, then the index) give
// the newest matches: a small window must answer as a big one does.
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
	search := func(window int64, q string) []int64 {
		t.Helper()
		old := searchWindow
		searchWindow = window
		defer func() { searchWindow = old }()
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
	for _, q := range []string{"rare needle", "filler", "needle 56", "absent"} {
		big, small := search(1000, q), search(5, q)
		if fmt.Sprint(big) != fmt.Sprint(small) {
			t.Errorf("Search(%q) = %v with a 5-event window, %v with the whole workstream in it", q, small, big)
		}
	}
	if got := search(5, "rare needle"); len(got) != 9 {
		t.Errorf("Search(rare needle) = %v; want the 9 events", got)
	}
}
