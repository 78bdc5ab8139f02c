package postgres

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/internal/benchgen"
)

const benchBatch = 400

// benchEvents makes n ~500 B events of one session (as ledger/sqlite's).
func benchEvents(g *benchgen.Gen, session string, from, n int) []ledger.EventInput {
	out := make([]ledger.EventInput, n)
	for i := range out {
		out[i] = ledger.EventInput{Harness: "claude", NativeSessionID: session,
			SourceRecordID: fmt.Sprintf("%s-%08d", session, from+i), Kind: ledger.KindMessage, Role: "assistant",
			OccurredAt: time.Unix(int64(1_700_000_000+from+i), 0), Content: g.Content(500)}
	}
	return out
}

func benchWorkstream(b *testing.B, db *DB) ledger.Workstream {
	ws, err := db.SelectWorkstream(context.Background(), ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w"}, ledger.Selector{})
	if err != nil {
		b.Fatal(err)
	}
	return ws
}

// BenchmarkAppend measures insert throughput with the search index kept
// current, in batches of 400 events (target >= 10,000 events/s).
func BenchmarkAppend(b *testing.B) {
	db := openTest(b)
	ws := benchWorkstream(b, db)
	g := benchgen.New(1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		evs := benchEvents(g, "s", i*benchBatch, benchBatch)
		b.StartTimer()
		if _, err := db.Append(context.Background(), ledger.Batch{WorkstreamID: ws.ID, RunID: "bench", Events: evs}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*benchBatch)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkSearch measures 2-word searches and newest-first listing in a
// 20,000-event workstream (the 1M-event figures come from
// scripts/bench-pg.sh).
func BenchmarkSearch(b *testing.B) {
	db := openTest(b)
	ws := benchWorkstream(b, db)
	g := benchgen.New(3)
	for i := 0; i < 50; i++ {
		if _, err := db.Append(context.Background(), ledger.Batch{WorkstreamID: ws.ID, RunID: "bench", Events: benchEvents(g, "s", i*benchBatch, benchBatch)}); err != nil {
			b.Fatal(err)
		}
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

// BenchmarkLaunchStart is the ledger's share of what `ai-memory run` does
// before the agent starts, against the server on 127.0.0.1: connect (TCP,
// SCRAM login, schema check), select the workstream, take the lease, read
// the current link and whether the workstream is established, read the
// handoff range and record it on the run (target <= 20 ms).
func BenchmarkLaunchStart(b *testing.B) {
	ctx := context.Background()
	loc, home := freshSchema(b), b.TempDir()
	setup, err := Open(ctx, ledger.Where{Home: home, Location: loc})
	if err != nil {
		b.Fatal(err)
	}
	ws := benchWorkstream(b, setup)
	g := benchgen.New(4)
	if _, err := setup.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, RunID: "bench", Events: benchEvents(g, "s", 0, benchBatch)}); err != nil {
		b.Fatal(err)
	}
	setup.Close()
	scope := ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w", Cwd: "/src"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		db, err := Open(ctx, ledger.Where{Home: home, Location: loc})
		if err != nil {
			b.Fatal(err)
		}
		w, err := db.SelectWorkstream(ctx, scope, ledger.Selector{})
		if err != nil {
			b.Fatal(err)
		}
		run, _, err := db.AcquireLease(ctx, w.ID, "claude", ledger.CurrentOwner())
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := db.CurrentLink(ctx, w.ID, "claude"); err != nil {
			b.Fatal(err)
		}
		if _, err := db.Established(ctx, w.ID); err != nil {
			b.Fatal(err)
		}
		last, err := db.LatestSequence(ctx, w.ID)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := db.EventsInRange(ctx, w.ID, 0, last, 50); err != nil {
			b.Fatal(err)
		}
		if err := db.SetRunSync(ctx, run.ID, 0, last); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := db.FinishRun(ctx, run.ID, new(int)); err != nil {
			b.Fatal(err)
		}
		db.Close()
		b.StartTimer()
	}
}

// BenchmarkTSVectorOf measures building one ~500 B event's search document,
// the client's largest cost of an append (it runs on all cores).
func BenchmarkTSVectorOf(b *testing.B) {
	g := benchgen.New(1)
	docs := make([]string, 1000)
	for i := range docs {
		docs[i] = g.Content(500)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		tsvectorOf(docs[i%len(docs)])
		i++
	}
}
