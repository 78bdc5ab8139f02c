package webui_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/internal/timelinefix"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/sqlite"
	"github.com/ai-memory/ai-memory/webui"
)

// BenchmarkTimelineBig measures server time of the pages over one big
// workstream: AI_MEMORY_UI_BENCH_EVENTS events (default 100,000) over
// AI_MEMORY_UI_BENCH_RUNS launches (default 20). Reported in README.md.
func BenchmarkTimelineBig(b *testing.B) {
	events := envInt("AI_MEMORY_UI_BENCH_EVENTS", 100_000)
	runs := envInt("AI_MEMORY_UI_BENCH_RUNS", 20)
	ctx := context.Background()
	db, err := sqlite.Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	start := time.Now()
	ws, err := timelinefix.BuildBig(ctx, db, "big", events, runs)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("built %d events in %d runs in %s", events, runs, time.Since(start).Round(time.Second))
	s, err := webui.New(db, webui.Options{Token: token, Hosts: []string{"ui.test"}, Scope: timelinefix.Scope})
	if err != nil {
		b.Fatal(err)
	}
	h := s.Handler()
	runsList, _ := db.Runs(ctx, ws.ID, 1)
	pages := []struct{ name, path string }{
		{"timeline-newest", "/w/" + ws.ID},
		{"timeline-oldest", "/w/" + ws.ID + "?after=0"},
		{"timeline-middle", "/w/" + ws.ID + "?after=" + strconv.Itoa(events/2)},
		{"live-tail", "/w/" + ws.ID + "/tail?after=" + strconv.Itoa(events-5)},
		{"live-sessions", "/w/" + ws.ID + "/sessions"},
		{"session-page", "/w/" + ws.ID + "/s/" + runsList[0].ID},
		{"search-common", "/w/" + ws.ID + "/search?q=w0"},
		{"search-rare", "/w/" + ws.ID + "/search?q=w1f00"},
		{"workstreams", "/"},
	}
	for _, p := range pages {
		b.Run(p.name, func(b *testing.B) {
			for b.Loop() {
				req := httptest.NewRequest("GET", p.path, nil)
				req.Host = "ui.test"
				req.AddCookie(&http.Cookie{Name: webui.CookieName, Value: token})
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatalf("%s: %d %s", p.path, w.Code, w.Body.String())
				}
			}
		})
	}
	// A fresh server per request: nothing compiled yet (first open).
	b.Run("timeline-cold", func(b *testing.B) {
		for b.Loop() {
			cold, err := webui.New(db, webui.Options{Token: token, Hosts: []string{"ui.test"}})
			if err != nil {
				b.Fatal(err)
			}
			req := httptest.NewRequest("GET", "/w/"+ws.ID, nil)
			req.Host = "ui.test"
			req.AddCookie(&http.Cookie{Name: webui.CookieName, Value: token})
			w := httptest.NewRecorder()
			cold.Handler().ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				b.Fatalf("%d", w.Code)
			}
		}
	})
	// The CLI's search over the same ledger, for comparison.
	b.Run("cli-search-common", func(b *testing.B) {
		for b.Loop() {
			if _, err := db.Search(ctx, ws.ID, "w0", ledger.MaxSearchLimit); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}
