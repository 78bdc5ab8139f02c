package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// upgradeFixtureTo brings the v1 fixture to schema version v with the
// embedded migrations alone, the way the binary of version v left it.
func upgradeFixtureTo(t *testing.T, v int) (string, map[string]json.RawMessage) {
	t.Helper()
	home, golden := extractFixture(t)
	raw, err := sql.Open("sqlite", filepath.Join(home, "ledger.db"))
	must(t, err)
	defer raw.Close()
	ms, err := migrations()
	must(t, err)
	for _, m := range ms {
		if m.version <= 1 || m.version > v {
			continue
		}
		_, err := raw.Exec(m.sql)
		must(t, err)
		_, err = raw.Exec(`INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, 0)`, m.version, m.name)
		must(t, err)
	}
	return home, golden
}

// assertUpgradeKeptEvents checks that the upgraded fixture's events read
// back exactly as the golden file has them and that replaying them (all but
// the capped one) adds nothing; it returns the main workstream's id.
func assertUpgradeKeptEvents(t *testing.T, db *DB, golden map[string]json.RawMessage) string {
	t.Helper()
	mainID := goldenString(t, golden, "main/id")
	evs, err := db.EventsInRange(context.Background(), mainID, 0, 1000, 0)
	must(t, err)
	if !sameJSON(t, evs, golden["main/events"]) {
		t.Fatalf("events differ after upgrade to %d: %.300s", db.SchemaVersion(), mustJSON(t, evs))
	}
	var replay []ledger.EventInput
	for _, e := range evs {
		if !strings.HasSuffix(e.Content, ledger.TruncationMarker) {
			replay = append(replay, e.EventInput)
		}
	}
	if r := mustAppend(t, db, ledger.Batch{WorkstreamID: mainID, Events: replay}); r.Added != 0 || r.Skipped != len(replay) {
		t.Fatalf("replay after upgrade = %+v; want all %d skipped", r, len(replay))
	}
	return mainID
}

func indexNames(t *testing.T, db *DB) string {
	t.Helper()
	rows, err := db.sql.Query(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' AND sql IS NOT NULL ORDER BY name`)
	must(t, err)
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		must(t, rows.Scan(&n))
		names = append(names, n)
	}
	return strings.Join(names, ",")
}

// TestMigrate_V2LedgerGetsTheTimeOrderedDedupeIndex upgrades a schema-2
// ledger: 0003 swaps the dedupe index, every event, dedupe and search stay
// as they were.
func TestMigrate_V2LedgerGetsTheTimeOrderedDedupeIndex(t *testing.T) {
	ctx := context.Background()
	home, golden := upgradeFixtureTo(t, 2)
	db, err := Open(ctx, home)
	must(t, err)
	defer db.Close()
	if db.SchemaVersion() != KnownSchemaVersion() {
		t.Fatalf("schema %d after opening a v2 ledger; want %d", db.SchemaVersion(), KnownSchemaVersion())
	}
	if got := indexNames(t, db); got != "events_dedupe" {
		t.Fatalf("indexes on events after upgrade: %q; want events_dedupe only", got)
	}
	mainID := assertUpgradeKeptEvents(t, db, golden)
	if hits, err := db.Search(ctx, mainID, "lease", 100); err != nil || len(hits) != 4 {
		t.Fatalf("search after upgrade = %d hits, %v; want 4", len(hits), err)
	}
	assertFTSIntact(t, db)
}

// TestAppend_DedupeByTimeAndID covers the lookup shapes of the
// time-ordered dedupe index: untimed events, equal times, a batch whose time
// range holds other events of the workstream, and batches longer than one
// lookup chunk, mixed timed and untimed.
func TestAppend_DedupeByTimeAndID(t *testing.T) {
	untimed := func(evs []ledger.EventInput) []ledger.EventInput {
		for i := range evs {
			evs[i].OccurredAt = time.Time{}
		}
		return evs
	}
	sameTime := func(evs []ledger.EventInput) []ledger.EventInput {
		for i := range evs {
			evs[i].OccurredAt = evs[0].OccurredAt
		}
		return evs
	}
	every := func(evs []ledger.EventInput, from int) (out []ledger.EventInput) {
		for i := from; i < len(evs); i += 2 {
			out = append(out, evs[i])
		}
		return out
	}
	interleaved := msgs("a", 0, 40, "interleaved")
	long := append(msgs("l", 0, 1100, "long"), untimed(msgs("l", 2000, 600, "long untimed"))...)
	for _, tc := range []struct {
		name    string
		batches [][]ledger.EventInput
	}{
		{"untimed", [][]ledger.EventInput{untimed(msgs("u", 0, 5, "untimed"))}},
		{"same time", [][]ledger.EventInput{sameTime(msgs("t", 0, 5, "same time"))}},
		{"interleaved sessions", [][]ledger.EventInput{every(interleaved, 0), every(msgs("b", 0, 40, "other"), 1), every(interleaved, 1)}},
		{"longer than a chunk", [][]ledger.EventInput{long}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, _ := openTest(t)
			ws := mustWorkstream(t, db, "dedupe").ID
			var all []ledger.EventInput
			for _, b := range tc.batches {
				if r := mustAppend(t, db, ledger.Batch{WorkstreamID: ws, Events: b}); r.Added != len(b) {
					t.Fatalf("first append = %+v; want %d added", r, len(b))
				}
				all = append(all, b...)
			}
			if r := mustAppend(t, db, ledger.Batch{WorkstreamID: ws, Events: all}); r.Added != 0 || r.Skipped != len(all) {
				t.Fatalf("replay of everything = %+v; want all %d skipped", r, len(all))
			}
			// Same time and id key prefix aside, a changed content is new.
			changed := all[0]
			changed.Content += " (edited)"
			if r := mustAppend(t, db, ledger.Batch{WorkstreamID: ws, Events: []ledger.EventInput{changed}}); r.Added != 1 {
				t.Fatalf("append of changed content = %+v; want 1 added", r)
			}
		})
	}
}

// TestMigrate_V5LedgerPacksItsText upgrades a schema-5 ledger: 0006 packs
// the long texts stored plain, rebuilds the index over the view, and every
// event, dedupe and search stay as they were.
func TestMigrate_V5LedgerPacksItsText(t *testing.T) {
	ctx := context.Background()
	home, golden := upgradeFixtureTo(t, 5)
	db, err := Open(ctx, home)
	must(t, err)
	defer db.Close()
	if db.SchemaVersion() != KnownSchemaVersion() {
		t.Fatalf("schema %d after opening a v5 ledger; want %d", db.SchemaVersion(), KnownSchemaVersion())
	}
	var blobs, longPlain int
	must(t, db.sql.QueryRow(`SELECT SUM(typeof(content) = 'blob'), SUM(typeof(content) = 'text' AND length(CAST(content AS BLOB)) > 4096) FROM events`).Scan(&blobs, &longPlain))
	if blobs == 0 || longPlain != 0 {
		t.Fatalf("after upgrade: %d packed rows, %d long rows left plain; want the long ones packed", blobs, longPlain)
	}
	mainID := assertUpgradeKeptEvents(t, db, golden)
	for q, want := range map[string]int{"lease": 4, "cafe resume": 1, "ai-memory": 2, "C++": 1} {
		if hits, err := db.Search(ctx, mainID, q, 100); err != nil || len(hits) != want {
			t.Errorf("Search(%q) after upgrade = %d hits, %v; want %d", q, len(hits), err, want)
		}
	}
	assertFTSIntact(t, db)
}

// Upgrading a ledger from upgradeNoticeEvents events on is announced before
// it starts and when it is done; a smaller one and an opening that upgrades
// nothing say nothing.
func TestMigrate_AnnouncesALongUpgrade(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		threshold int64
		want      []string
	}{
		{1, []string{"upgrading the ledger ", "from schema 5 to " + strconv.Itoa(KnownSchemaVersion()), "resumes next time", "ledger upgraded to schema"}},
		{1 << 40, nil},
	} {
		defer func(old int64) { upgradeNoticeEvents = old }(upgradeNoticeEvents)
		upgradeNoticeEvents = tt.threshold
		home, _ := upgradeFixtureTo(t, 5)
		var lines []string
		notice := func(l string) { lines = append(lines, l) }
		db, err := OpenWith(ctx, home, Options{Notice: notice})
		must(t, err)
		db.Close()
		got := strings.Join(lines, "\n")
		if tt.want == nil && got != "" {
			t.Errorf("threshold %d: notices %q; want none", tt.threshold, got)
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("threshold %d: notices %q; want them to say %q", tt.threshold, got, w)
			}
		}
		if tt.want != nil && len(lines) != 2 {
			t.Errorf("threshold %d: %d notices; want 2 (before and after)", tt.threshold, len(lines))
		}
		lines = nil
		db, err = OpenWith(ctx, home, Options{Notice: notice})
		must(t, err)
		db.Close()
		if len(lines) != 0 {
			t.Errorf("reopening an upgraded ledger said %q; want nothing", lines)
		}
	}
}
