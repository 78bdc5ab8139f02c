package sqlite

import (
	"fmt"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/internal/benchgen"
)

// walFramesPerBatch appends n batches of 400 fresh events to ws, each after
// emptying the WAL, and returns the average number of pages one batch wrote.
func walFramesPerBatch(t *testing.T, db *DB, ws string, g *benchgen.Gen, from, n int) float64 {
	t.Helper()
	total := 0
	for i := 0; i < n; i++ {
		if _, err := db.sql.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			t.Fatal(err)
		}
		mustAppend(t, db, ledger.Batch{WorkstreamID: ws, Events: randomIDEvents(g, from+i*400, 400)})
		var busy, frames, done int
		if err := db.sql.QueryRow(`PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &done); err != nil {
			t.Fatal(err)
		}
		total += frames
	}
	return float64(total) / float64(n)
}

// randomIDEvents are n events in time order whose record ids, like Claude's
// UUIDs, do not sort in time order.
func randomIDEvents(g *benchgen.Gen, from, n int) []ledger.EventInput {
	out := make([]ledger.EventInput, n)
	for i := range out {
		out[i] = ledger.EventInput{Harness: "claude", NativeSessionID: "s", Kind: ledger.KindMessage, Role: "assistant",
			SourceRecordID: fmt.Sprintf("%08x", uint32((from+i)*2654435761)),
			OccurredAt:     time.Unix(int64(1_700_000_000+from+i), 0), Content: g.Content(200)}
	}
	return out
}

// TestAppend_WritesDoNotGrowWithTheWorkstream is the regression test for
// the write amplification of one growing workstream: the pages an append
// of 400 events writes must not grow with the events already stored. With
// the dedupe index keyed on the id hash, a batch rewrote one leaf page per
// event once the index outgrew a batch (here: 2.3x more pages at 48k events
// than at 4k: 96 pages against 42).
func TestAppend_WritesDoNotGrowWithTheWorkstream(t *testing.T) {
	if testing.Short() {
		t.Skip("appends 50,000 events")
	}
	db, _ := openTest(t)
	ws := mustWorkstream(t, db, "big").ID
	g := benchgen.New(7)
	seq := 0
	fill := func(upto int) {
		for ; seq < upto; seq += 400 {
			mustAppend(t, db, ledger.Batch{WorkstreamID: ws, Events: randomIDEvents(g, seq, 400)})
		}
	}
	fill(4000)
	small := walFramesPerBatch(t, db, ws, g, seq, 8)
	seq += 8 * 400
	fill(48000)
	big := walFramesPerBatch(t, db, ws, g, seq, 8)
	t.Logf("pages per batch: %.1f at 4k, %.1f at 48k", small, big)
	if big > small*1.5 {
		t.Fatalf("an append of 400 events wrote %.1f pages at 48k events but %.1f at 4k: writes grow with the workstream", big, small)
	}
}
