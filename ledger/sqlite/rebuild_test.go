package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
)

func TestRebuild_ReproducesEvents(t *testing.T) {
	ctx := context.Background()
	db, clk := openTest(t)
	a, b := mustWorkstream(t, db, "a"), mustWorkstream(t, db, "b")
	for i := 0; i < 4; i++ {
		clk.Advance(1e9)
		evs := msgs("s", i*10, 10, fmt.Sprintf("batch%d text", i))
		evs[0].Metadata = map[string]any{"tool": "bash", "n": float64(i)}
		mustAppend(t, db, ledger.Batch{WorkstreamID: a.ID, RunID: fmt.Sprintf("run-%d", i%2), Events: evs})
	}
	mustAppend(t, db, ledger.Batch{WorkstreamID: b.ID, Events: msgs("t", 0, 3, "other")})
	beforeA, _ := db.EventsInRange(ctx, a.ID, 0, 1000, 0)
	beforeB, _ := db.EventsInRange(ctx, b.ID, 0, 1000, 0)

	// Damage the tables: drop rows and scramble the index.
	_, err := db.sql.Exec(`DELETE FROM events WHERE sequence % 3 = 0; INSERT INTO events_fts(events_fts) VALUES ('delete-all')`)
	must(t, err)
	res, err := db.Rebuild(ctx)
	if err != nil || res.Workstreams != 2 || res.Events != 43 || res.Segments != 5 || res.Duplicates != 0 {
		t.Fatalf("Rebuild = %+v, %v", res, err)
	}
	afterA, _ := db.EventsInRange(ctx, a.ID, 0, 1000, 0)
	afterB, _ := db.EventsInRange(ctx, b.ID, 0, 1000, 0)
	if !reflect.DeepEqual(beforeA, afterA) || !reflect.DeepEqual(beforeB, afterB) {
		t.Fatalf("rebuilt events differ:\n%+v\n%+v", beforeA[:2], afterA[:2])
	}
	if hits, err := db.Search(ctx, a.ID, "batch2", 100); err != nil || len(hits) != 10 {
		t.Fatalf("search after rebuild = %d, %v; want 10", len(hits), err)
	}
	if n, _ := db.CountEvents(ctx, a.ID); n != 40 {
		t.Fatalf("CountEvents after rebuild = %d", n)
	}
	var check string
	must(t, db.sql.QueryRow(`INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1) RETURNING 'ok'`).Scan(&check))
	// Appending continues after the restored sequence.
	if r := mustAppend(t, db, ledger.Batch{WorkstreamID: a.ID, Events: msgs("s", 100, 1, "new")}); r.LastSequence != 41 {
		t.Fatalf("append after rebuild = %+v", r)
	}
}

func TestRebuild_OrphanAndCollidingSegments(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	ws := mustWorkstream(t, db, "w")
	res := mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, RunID: "r", Events: msgs("s", 0, 2, "kept")})
	// A segment left by a batch that crashed before commit reuses sequence 2
	// for a different event; it sorts first by name, but the committed
	// segment must keep its sequences.
	seg, err := durable.ReadSegmentFile(filepath.Join(db.Home(), res.SegmentPath))
	must(t, err)
	lines := strings.SplitN(string(seg), "\n", 3)
	ghost := strings.Replace(lines[1], "kept number 1", "ghost", 1)
	// Segments leave out ids their fields derive; the ghost carries one
	// that does not match its fields.
	ghost = strings.Replace(ghost, `"harness":`, `"event_id":"`+strings.Repeat("ab", 32)+`","harness":`, 1)
	dir := filepath.Dir(filepath.Join(db.Home(), res.SegmentPath))
	must(t, os.WriteFile(filepath.Join(dir, "a-crashed.jsonl"), []byte(lines[0]+"\n"+ghost+"\n"), 0o600))
	must(t, os.MkdirAll(filepath.Join(db.Home(), "segments", "unknown-ws"), 0o700))
	must(t, os.WriteFile(filepath.Join(db.Home(), "segments", "unknown-ws", "x.jsonl"), []byte(lines[0]+"\n"), 0o600))
	r, err := db.Rebuild(ctx)
	if err != nil || r.Events != 3 || r.Duplicates != 1 || r.Renumbered != 1 || r.OrphanSegments != 1 {
		t.Fatalf("Rebuild = %+v, %v", r, err)
	}
	evs, _ := db.EventsInRange(ctx, ws.ID, 0, 10, 0)
	// The ghost's id does not match its fields, so it is stored and kept.
	if len(evs) != 3 || evs[2].Sequence != 3 || evs[2].Content != "ghost" || evs[1].Content != "kept number 1" ||
		evs[2].EventID != strings.Repeat("ab", 32) {
		t.Fatalf("events after rebuild: %+v", evs)
	}
	must(t, os.WriteFile(filepath.Join(dir, "a-crashed.jsonl"), []byte("{not json\n"), 0o600))
	if _, err := db.Rebuild(ctx); err == nil || !strings.Contains(err.Error(), "move the file aside") {
		t.Fatalf("Rebuild with a broken segment = %v; want a clear error", err)
	}
}
