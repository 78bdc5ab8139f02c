package sqlite

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/internal/benchgen"
)

const benchBatch = 400

// benchEvents makes n ~500 B events of one session.
func benchEvents(g *benchgen.Gen, session string, from, n int) []ledger.EventInput {
	out := make([]ledger.EventInput, n)
	for i := range out {
		out[i] = ledger.EventInput{Harness: "claude", NativeSessionID: session,
			SourceRecordID: fmt.Sprintf("%s-%08d", session, from+i), Kind: ledger.KindMessage, Role: "assistant",
			OccurredAt: time.Unix(int64(1_700_000_000+from+i), 0), Content: g.Content(500)}
	}
	return out
}

// BenchmarkAppend measures insert throughput with FTS indexing, in batches
// of 400 events (target >= 10,000 events/s).
func BenchmarkAppend(b *testing.B) {
	db, _ := openTest(b)
	ws := mustWorkstream(b, db, "bench")
	g := benchgen.New(1)
	batches := make([][]ledger.EventInput, 8)
	for i := range batches {
		batches[i] = benchEvents(g, "s", i*benchBatch, benchBatch)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		evs := batches[i%len(batches)]
		if i >= len(batches) {
			b.StopTimer()
			evs = benchEvents(g, "s", i*benchBatch, benchBatch)
			b.StartTimer()
		}
		mustAppend(b, db, ledger.Batch{WorkstreamID: ws.ID, RunID: "bench", Events: evs})
	}
	b.ReportMetric(float64(b.N*benchBatch)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkReimport measures a replay of batches that are all present.
func BenchmarkReimport(b *testing.B) {
	db, _ := openTest(b)
	ws := mustWorkstream(b, db, "bench")
	g := benchgen.New(2)
	var batches [][]ledger.EventInput
	for i := 0; i < 10; i++ {
		evs := benchEvents(g, "s", i*benchBatch, benchBatch)
		mustAppend(b, db, ledger.Batch{WorkstreamID: ws.ID, RunID: "bench", Events: evs})
		batches = append(batches, evs)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res := mustAppend(b, db, ledger.Batch{WorkstreamID: ws.ID, RunID: "bench", Events: batches[i%len(batches)]})
		if res.Added != 0 {
			b.Fatalf("replay added %d events", res.Added)
		}
	}
	b.ReportMetric(float64(b.N*benchBatch)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkSearch measures 2-word searches and newest-first listing in a
// 20,000-event workstream (the 1M-event figures come from
// scripts/bench-ledger.sh).
func BenchmarkSearch(b *testing.B) {
	db, _ := openTest(b)
	ws := mustWorkstream(b, db, "bench")
	g := benchgen.New(3)
	for i := 0; i < 50; i++ {
		mustAppend(b, db, ledger.Batch{WorkstreamID: ws.ID, RunID: "bench", Events: benchEvents(g, "s", i*benchBatch, benchBatch)})
	}
	for _, band := range []struct {
		name   string
		lo, hi int
	}{{"rare", 500, 5000}, {"mid", 50, 500}, {"common", 5, 50}, {"newest", 0, 0}} {
		b.Run(band.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				q := ""
				if band.hi > 0 {
					q = g.Pair(band.lo, band.hi)
				}
				if _, err := db.Search(context.Background(), ws.ID, q, 20); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendByTime is BenchmarkAppend with events placed by time
// (EventInput.ByTime, as Claude's are): "ordered" costs the newest-time
// check only; "late" makes every 50th event arrive after the 10 that
// follow it in time, so each of those looks up where it belongs.
func BenchmarkAppendByTime(b *testing.B) {
	for _, late := range []bool{false, true} {
		name := "ordered"
		if late {
			name = "late"
		}
		b.Run(name, func(b *testing.B) {
			db, _ := openTest(b)
			ws := mustWorkstream(b, db, "bench")
			g := benchgen.New(1)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				evs := benchEvents(g, "s", i*benchBatch, benchBatch)
				for j := range evs {
					evs[j].ByTime = true
					if late && j%50 == 10 {
						evs[j].OccurredAt = evs[j].OccurredAt.Add(-10 * time.Second)
					}
				}
				b.StartTimer()
				mustAppend(b, db, ledger.Batch{WorkstreamID: ws.ID, RunID: "bench", Events: evs})
			}
			b.ReportMetric(float64(b.N*benchBatch)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
