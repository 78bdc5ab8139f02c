package sqlite

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// The fixture testdata/v1-ledger.tar.gz is a data home written by the
// schema-1 code (commit 006d390): three workstreams in two scopes, a
// finished claude run and an active codex run, current and demoted session
// links with source and delivery cursors, events of every common kind with
// metadata, diacritics and one content above MaxContentBytes, and their
// segments. golden.json holds what that code's API returned for it.

// extractFixture unpacks the v1 fixture and returns the home and the golden
// API answers.
func extractFixture(t *testing.T) (string, map[string]json.RawMessage) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "v1-ledger.tar.gz"))
	must(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	must(t, err)
	dir := t.TempDir()
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		must(t, err)
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		if h.Typeflag == tar.TypeDir {
			must(t, os.MkdirAll(p, 0o700))
			continue
		}
		b, err := io.ReadAll(tr)
		must(t, err)
		must(t, os.WriteFile(p, b, 0o600))
	}
	raw, err := os.ReadFile(filepath.Join(dir, "golden.json"))
	must(t, err)
	var golden map[string]json.RawMessage
	must(t, json.Unmarshal(raw, &golden))
	return filepath.Join(dir, "home"), golden
}

// sameJSON reports whether v marshals to the same JSON value as want.
func sameJSON(t *testing.T, v any, want json.RawMessage) bool {
	t.Helper()
	got, err := json.Marshal(v)
	must(t, err)
	var a, b any
	must(t, json.Unmarshal(got, &a))
	must(t, json.Unmarshal(want, &b))
	return reflect.DeepEqual(a, b)
}

// withMachine is a golden list of links or runs (written before machines
// existed) as a ledger upgraded by machine returns it: migration 0005 gives
// every link and run the upgrading machine.
func withMachine(t *testing.T, raw json.RawMessage, what, machine string) json.RawMessage {
	t.Helper()
	var rows []map[string]any
	must(t, json.Unmarshal(raw, &rows))
	for _, r := range rows {
		switch what {
		case "links":
			r["Machine"] = machine
		case "runs":
			r["Owner"].(map[string]any)["Machine"] = machine
		}
	}
	out, err := json.Marshal(rows)
	must(t, err)
	return out
}

func goldenString(t *testing.T, g map[string]json.RawMessage, key string) string {
	t.Helper()
	var s string
	must(t, json.Unmarshal(g[key], &s))
	return s
}

func TestMigrate_V1LedgerKeepsEverything(t *testing.T) {
	ctx := context.Background()
	home, golden := extractFixture(t)
	db, err := Open(ctx, home)
	if err != nil {
		t.Fatalf("Open of a v1 ledger: %v", err)
	}
	defer db.Close()
	db.Now = func() time.Time { return time.Date(2026, 3, 1, 12, 5, 0, 0, time.UTC) }
	if db.SchemaVersion() != KnownSchemaVersion() || KnownSchemaVersion() < 2 {
		t.Fatalf("schema version %d after migration; want %d", db.SchemaVersion(), KnownSchemaVersion())
	}
	for _, name := range []string{"main", "other", "default"} {
		id := goldenString(t, golden, name+"/id")
		evs, err := db.EventsInRange(ctx, id, 0, 1000, 0)
		must(t, err)
		runs, err := db.Runs(ctx, id, 100)
		must(t, err)
		links, err := db.Links(ctx, id)
		must(t, err)
		for _, e := range evs {
			if e.Order != e.Sequence { // 0004: events stored before it keep arrival order
				t.Errorf("%s event %d has order %d after migration; want its sequence", name, e.Sequence, e.Order)
			}
		}
		for what, v := range map[string]any{"events": evs, "runs": runs, "links": links} {
			if want := withMachine(t, golden[name+"/"+what], what, db.Machine()); !sameJSON(t, v, want) {
				t.Errorf("%s %s differ after migration:\n got %s\nwant %.400s", name, what, mustJSON(t, v), want)
			}
		}
	}
	list, err := db.ListWorkstreams(ctx, testScope)
	must(t, err)
	if !sameJSON(t, list, golden["list"]) {
		t.Errorf("ListWorkstreams differs after migration: %s", mustJSON(t, list))
	}
	assertFTSIntact(t, db)
}

// assertSameEvents compares event lists field by field and reports the
// first difference briefly (contents can be 64 KiB long).
func assertSameEvents(t *testing.T, what string, want, got []ledger.Event) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("%s: %d events; want %d", what, len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if w.Content != g.Content {
			t.Fatalf("%s: event %d content differs (%d vs %d bytes)", what, w.Sequence, len(g.Content), len(w.Content))
		}
		w.Content, g.Content = "", ""
		if !reflect.DeepEqual(w, g) {
			t.Fatalf("%s: event %d differs:\n got %+v\nwant %+v", what, w.Sequence, g, w)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	must(t, err)
	return string(b)
}

// assertFTSIntact runs FTS5's integrity check, which compares the index with
// the content of the events table.
func assertFTSIntact(t *testing.T, db *DB) {
	t.Helper()
	if _, err := db.sql.Exec(`INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)`); err != nil {
		t.Fatalf("FTS integrity check: %v", err)
	}
}

func TestMigrate_V1LedgerStaysUsable(t *testing.T) {
	ctx := context.Background()
	home, golden := extractFixture(t)
	db, err := Open(ctx, home)
	must(t, err)
	defer db.Close()
	db.Now = func() time.Time { return time.Date(2026, 3, 1, 12, 5, 0, 0, time.UTC) }
	mainID := goldenString(t, golden, "main/id")
	var before []ledger.Event
	must(t, json.Unmarshal(golden["main/events"], &before))

	// Search finds migrated events, scoped to their workstream.
	for q, want := range map[string]int{"lease": 4, "cafe resume": 1, "ai-memory": 2, "C++": 1, "far": 0} {
		hits, err := db.Search(ctx, mainID, q, 100)
		if err != nil || len(hits) != want {
			t.Errorf("Search(%q) = %d hits, %v; want %d", q, len(hits), err, want)
		}
	}
	// Replaying the original blocks adds nothing: dedupe works against the
	// ids stored by v1. (The capped event cannot be replayed from the DB.)
	var replay []ledger.EventInput
	for _, e := range before {
		if !strings.HasSuffix(e.Content, ledger.TruncationMarker) {
			replay = append(replay, e.EventInput)
		}
	}
	if r := mustAppend(t, db, ledger.Batch{WorkstreamID: mainID, Events: replay}); r.Added != 0 || r.Skipped != len(replay) {
		t.Fatalf("replay after migration = %+v; want all %d skipped", r, len(replay))
	}
	// New events continue the sequence and are found by search and dedupe.
	fresh := []ledger.EventInput{{Harness: "claude", NativeSessionID: "c0ffee00-0000-4000-8000-000000000009",
		SourceRecordID: "new-1", Kind: ledger.KindMessage, Role: "user", Content: "post-migration lease question"}}
	if r := mustAppend(t, db, ledger.Batch{WorkstreamID: mainID, Events: fresh}); r.Added != 1 || r.LastSequence != int64(len(before)+1) {
		t.Fatalf("append after migration = %+v", r)
	}
	if r := mustAppend(t, db, ledger.Batch{WorkstreamID: mainID, Events: fresh}); r.Added != 0 {
		t.Fatalf("replay of the new event = %+v", r)
	}
	if hits, _ := db.Search(ctx, mainID, "lease", 100); len(hits) != 5 {
		t.Fatalf("search after append = %d hits; want 5", len(hits))
	}
	assertFTSIntact(t, db)

	// Rebuild from the v1 segments (plus the new one) reproduces the events.
	all, err := db.EventsInRange(ctx, mainID, 0, 1000, 0)
	must(t, err)
	if _, err := db.Rebuild(ctx); err != nil {
		t.Fatalf("Rebuild after migration: %v", err)
	}
	again, err := db.EventsInRange(ctx, mainID, 0, 1000, 0)
	must(t, err)
	assertSameEvents(t, "rebuild after migration", all, again)
	assertFTSIntact(t, db)
}

func TestMigrate_ReopenAppliesNothing(t *testing.T) {
	ctx := context.Background()
	home, _ := extractFixture(t)
	for i := 0; i < 2; i++ {
		db, err := Open(ctx, home)
		must(t, err)
		var n int
		must(t, db.sql.QueryRow(`SELECT COUNT(*) FROM schema_version`).Scan(&n))
		if n != KnownSchemaVersion() {
			t.Fatalf("open #%d: %d migrations recorded; want %d", i, n, KnownSchemaVersion())
		}
		must(t, db.Close())
	}
}

func TestEventIDs_StoredOnlyWhenNotDerivable(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	ws := mustWorkstream(t, db, "ids")
	long := strings.Repeat("é", ledger.MaxContentBytes) // cut by the cap: the id cannot be derived
	in := []ledger.EventInput{
		{Harness: "claude", NativeSessionID: "s", SourceRecordID: "r1", Kind: ledger.KindMessage, Role: "user", Content: "short text"},
		{Harness: "codex", SourceRecordID: "r2", BlockIndex: 3, Kind: ledger.KindToolResult, Content: long},
	}
	mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: in})
	assertIDs := func(when string) {
		t.Helper()
		evs, err := db.EventsInRange(ctx, ws.ID, 0, 10, 0)
		must(t, err)
		for i, wantStored := range []bool{false, true} {
			var stored bool
			must(t, db.sql.QueryRow(`SELECT event_id IS NOT NULL FROM events WHERE sequence = ?`, evs[i].Sequence).Scan(&stored)) // the only workstream
			if stored != wantStored || evs[i].EventID != ledger.EventID(in[i]) {
				t.Errorf("%s: event %d id %s stored=%v; want %s stored=%v", when, i+1, evs[i].EventID, stored, ledger.EventID(in[i]), wantStored)
			}
		}
	}
	assertIDs("after append")
	_, err := db.Rebuild(ctx)
	must(t, err)
	assertIDs("after rebuild")
	if r := mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: in}); r.Added != 0 {
		t.Fatalf("replay = %+v; want nothing added", r)
	}
}

// TestMigrate_CompactsTheFile checks the step Open runs after applying
// migrations: a file that is mostly free pages (as after 0002 rebuilt the
// events table of a large ledger) is vacuumed.
func TestMigrate_CompactsTheFile(t *testing.T) {
	ctx := context.Background()
	home, _ := extractFixture(t)
	db, err := Open(ctx, home)
	must(t, err)
	defer db.Close()
	pages := func() (free, total int64) {
		must(t, db.sql.QueryRow(`PRAGMA freelist_count`).Scan(&free))
		must(t, db.sql.QueryRow(`PRAGMA page_count`).Scan(&total))
		return free, total
	}
	_, err = db.sql.Exec(`CREATE TABLE junk AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
  SELECT i, randomblob(4000) AS b FROM n; DROP TABLE junk`)
	must(t, err)
	free, total := pages()
	if free*4 < total {
		t.Fatalf("setup: only %d of %d pages free", free, total)
	}
	db.compactAfterMigration(ctx, false)
	if f, n := pages(); f != 0 || n >= total-free/2 {
		t.Fatalf("after compaction %d of %d pages free (before %d of %d)", f, n, free, total)
	}
	// A file with little free space is left alone.
	if _, err := db.sql.Exec(`CREATE TABLE junk (b); INSERT INTO junk VALUES (randomblob(20000)); DROP TABLE junk`); err != nil {
		t.Fatal(err)
	}
	free, total = pages()
	db.compactAfterMigration(ctx, false)
	if f, n := pages(); f != free || n != total {
		t.Fatalf("a mostly full file was vacuumed: %d/%d -> %d/%d", free, total, f, n)
	}
	// Unless forced (after packing the text in place, which frees no page).
	db.compactAfterMigration(ctx, true)
	if f, _ := pages(); f != 0 {
		t.Fatalf("forced compaction left %d pages free", f)
	}
}
