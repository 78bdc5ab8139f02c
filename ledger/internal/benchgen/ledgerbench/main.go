// Command ledgerbench builds a large ledger with the public ledger API and
// reports ingest, re-import and search figures. scripts/bench-ledger.sh runs
// it; the numbers are documented in docs/ledger.md.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/internal/benchgen"
	_ "github.com/ai-memory/ai-memory/ledger/postgres"
	_ "github.com/ai-memory/ai-memory/ledger/sqlite"
)

type config struct {
	home                       string
	location                   string // the ledger: "" (SQLite in home) or a postgres:// URL
	events, workstreams, batch int
	avg                        int
	seed                       int64
	cli                        string // ai-memory binary for CLI search timings
	searchOnly                 bool   // search an existing home built by an earlier run
	serverPID                  int    // a local PostgreSQL server's postmaster: its CPU is measured too
}

func main() {
	var c config
	flag.StringVar(&c.home, "home", "", "data directory to create (must not exist)")
	flag.StringVar(&c.location, "ledger", "", "ledger location: empty for SQLite in -home, or a postgres:// URL (an empty database or schema)")
	flag.IntVar(&c.events, "events", 1_000_000, "total events")
	flag.IntVar(&c.workstreams, "workstreams", 1000, "workstreams")
	flag.IntVar(&c.batch, "batch", 400, "events per Append")
	flag.IntVar(&c.avg, "avg", 500, "average content bytes")
	flag.Int64Var(&c.seed, "seed", 1, "generator seed")
	flag.StringVar(&c.cli, "cli", "", "also time `ai-memory workstream-search` through this binary (one process per query)")
	flag.IntVar(&c.serverPID, "server-pid", 0, "pid of the local PostgreSQL postmaster serving -ledger, to report the server's CPU time of the ingest (Linux)")
	flag.BoolVar(&c.searchOnly, "search-only", false, "only run the searches, on a home an earlier run built with the same -workstreams")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to `FILE`")
	flag.Parse()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "ledgerbench:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(context.Background(), c); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "ledgerbench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, c config) error {
	if c.home == "" {
		return fmt.Errorf("-home is required")
	}
	if _, err := os.Stat(c.home); (err == nil) != c.searchOnly {
		return fmt.Errorf("%s: pass a new directory (or an existing one with -search-only)", c.home)
	}
	db, err := ledger.Open(ctx, ledger.Where{Home: c.home, Location: c.location})
	if err != nil {
		return err
	}
	g := benchgen.New(c.seed)
	wss, err := makeWorkstreams(ctx, db, c.workstreams)
	if err != nil {
		return err
	}
	var text int64
	if !c.searchOnly {
		var sample []batchRef
		var appendTime time.Duration
		s0, c0 := serverCPU(c.serverPID), cpuTime()
		if text, sample, appendTime, err = ingest(ctx, db, g, wss, c); err != nil {
			return err
		}
		// Closing finishes work an import leaves behind (PostgreSQL: the
		// merge of the search index's pending list; SQLite: the WAL
		// checkpoint), so it counts as ingest time (see ingest).
		t0 := time.Now()
		if err := db.Close(); err != nil {
			return err
		}
		fmt.Printf("INGEST %d events = %.0f events/s including %.2fs closing the ledger after the last Append\n",
			c.events, float64(c.events)/(appendTime+time.Since(t0)).Seconds(), time.Since(t0).Seconds())
		if db, err = ledger.Open(ctx, ledger.Where{Home: c.home, Location: c.location}); err != nil {
			return err
		}
		if c.serverPID > 0 {
			s, cl := serverCPU(c.serverPID)-s0, cpuTime()-c0
			fmt.Printf("INGEST CPU: server %.1fs + client %.1fs (generation included) = %.0f events per server CPU-second, %.0f per CPU-second in all\n",
				s.Seconds(), cl.Seconds(), float64(c.events)/s.Seconds(), float64(c.events)/(s+cl).Seconds())
		}
		if err := reimport(ctx, db, wss, sample); err != nil {
			return err
		}
	}
	if err := searches(ctx, g, wss, inProcess(db)); err != nil {
		return err
	}
	if c.location != "" && !c.searchOnly {
		if err := serverSize(ctx, db, c.home, text); err != nil {
			return err
		}
	}
	if err := db.Close(); err != nil {
		return err
	}
	if c.cli != "" {
		if err := searches(ctx, g, wss, throughCLI(c.cli, c.home)); err != nil {
			return err
		}
	}
	if c.searchOnly || c.location != "" {
		return nil
	}
	return sizes(c.home, text)
}

func makeWorkstreams(ctx context.Context, db ledger.Ledger, n int) ([]string, error) {
	ids := make([]string, n)
	for i := range ids {
		s := ledger.Scope{RepoFingerprint: fmt.Sprintf("repo-%d", i), WorktreeFingerprint: "wt"}
		ws, err := db.SelectWorkstream(ctx, s, ledger.Selector{})
		if err != nil {
			return nil, err
		}
		ids[i] = ws.ID
	}
	return ids, nil
}

type batchRef struct {
	ws  string
	evs []ledger.EventInput
}

// ingest appends round-robin batches (each workstream's history is spread
// over the whole table, as with interleaved real use) and keeps a sample of
// batches for the re-import measurement. Only the time spent inside Append
// counts, not generating the synthetic events; it returns that time.
func ingest(ctx context.Context, db ledger.Ledger, g *benchgen.Gen, wss []string, c config) (int64, []batchRef, time.Duration, error) {
	var text int64
	var sample []batchRef
	var total, chunk time.Duration
	wall := time.Now()
	cpu0 := cpuTime()
	r0, w0 := ioBytes()
	done, next := 0, 0
	for done < c.events {
		ws := wss[next%len(wss)]
		n := min(c.batch, c.events-done)
		evs := events(g, ws, done, n, c.avg)
		t0 := time.Now()
		if _, err := db.Append(ctx, ledger.Batch{WorkstreamID: ws, RunID: "bench", Events: evs}); err != nil {
			return 0, nil, 0, err
		}
		el := time.Since(t0)
		total, chunk = total+el, chunk+el
		for _, e := range evs {
			text += int64(len(e.Content))
		}
		if next%4 == 0 && len(sample)*c.batch < 100_000 {
			sample = append(sample, batchRef{ws, evs})
		}
		done += n
		next++
		if done%200_000 < c.batch || done == c.events {
			cpu := cpuTime()
			r, w := ioBytes()
			fmt.Printf("ingest: %d events, chunk %.0f ev/s, %.1fs CPU (user+sys, generation included) for %.1fs in Append, wrote %.0f MB, read %.0f MB\n",
				done, float64(min(200_000, done))/chunk.Seconds(), (cpu - cpu0).Seconds(), chunk.Seconds(), mb(w-w0), mb(r-r0))
			chunk, cpu0, r0, w0 = 0, cpu, r, w
		}
	}
	fmt.Printf("APPEND %d events in %.1fs of Append = %.0f events/s (batches of %d, FTS included; %.1fs wall with generation)\n",
		c.events, total.Seconds(), float64(c.events)/total.Seconds(), c.batch, time.Since(wall).Seconds())
	return text, sample, total, nil
}

func events(g *benchgen.Gen, ws string, from, n, avg int) []ledger.EventInput {
	out := make([]ledger.EventInput, n)
	for i := range out {
		out[i] = ledger.EventInput{Harness: "claude", NativeSessionID: "00000000-0000-4000-8000-" + ws[len(ws)-12:], // one session per workstream
			SourceRecordID: fmt.Sprintf("%08d-aaaa-4bbb-8ccc-dddddddddddd", from+i), Kind: ledger.KindMessage,
			Role: "assistant", OccurredAt: time.Unix(int64(1_700_000_000+from+i), 0), Content: g.Content(avg)}
	}
	return out
}

func reimport(ctx context.Context, db ledger.Ledger, wss []string, sample []batchRef) error {
	start := time.Now()
	n := 0
	for _, b := range sample {
		res, err := db.Append(ctx, ledger.Batch{WorkstreamID: b.ws, RunID: "bench", Events: b.evs})
		if err != nil {
			return err
		}
		if res.Added != 0 {
			return fmt.Errorf("re-import added %d events", res.Added)
		}
		n += len(b.evs)
	}
	el := time.Since(start)
	fmt.Printf("REIMPORT %d present events in %.2fs = %.0f events/s\n", n, el.Seconds(), float64(n)/el.Seconds())
	return nil
}

// searcher runs one search and returns its latency, the CPU time it used
// and its result count. On a shared machine the wall time includes waiting
// for a core; the CPU time does not.
type searcher struct {
	name string
	run  func(ctx context.Context, ws, q string) (wall, cpu time.Duration, n int, err error)
}

func inProcess(db ledger.Ledger) searcher {
	return searcher{"in-process", func(ctx context.Context, ws, q string) (time.Duration, time.Duration, int, error) {
		t0, c0 := time.Now(), cpuTime()
		evs, err := db.Search(ctx, ws, q, 20)
		return time.Since(t0), cpuTime() - c0, len(evs), err
	}}
}

// throughCLI times a whole `ai-memory workstream-search --json` process:
// start, open, search, JSON out.
func throughCLI(bin, home string) searcher {
	return searcher{"CLI", func(ctx context.Context, ws, q string) (time.Duration, time.Duration, int, error) {
		args := []string{"workstream-search", "--json", "--workstream-id", ws}
		if q != "" {
			args = append(args, "--", q)
		}
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = append(os.Environ(), "AI_MEMORY_HOME="+home)
		t0 := time.Now()
		out, err := cmd.Output()
		el := time.Since(t0)
		if err != nil {
			return el, 0, 0, fmt.Errorf("ai-memory workstream-search %q: %w", q, err)
		}
		cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		var evs []json.RawMessage
		if err := json.Unmarshal(out, &evs); err != nil {
			return el, cpu, 0, fmt.Errorf("ai-memory workstream-search %q: bad JSON: %w", q, err)
		}
		return el, cpu, len(evs), nil
	}}
}

// bands are the query classes: 2 words drawn from a Zipf rank band
// ("everything": two of the five most common words, which match nearly
// every event), and the empty query (newest first).
var bands = []struct {
	name   string
	lo, hi int
	n      int
}{{"rare", 500, 5000, 200}, {"mid", 50, 500, 200}, {"common", 5, 50, 100}, {"everything", 0, 5, 100}, {"newest-first", 0, 0, 200}}

func searches(ctx context.Context, g *benchgen.Gen, wss []string, s searcher) error {
	for _, b := range bands {
		lat := make([]time.Duration, 0, b.n)
		cpus := make([]time.Duration, 0, b.n)
		hits := 0
		for i := 0; i < b.n+10; i++ { // the first 10 warm the cache
			q := ""
			if b.hi > 0 {
				q = g.Pair(b.lo, b.hi)
			}
			el, cpu, n, err := s.run(ctx, wss[(i*7919)%len(wss)], q)
			if err != nil {
				return err
			}
			if i >= 10 {
				lat, cpus = append(lat, el), append(cpus, cpu)
				hits += n
			}
		}
		sortDurations(lat)
		sortDurations(cpus)
		fmt.Printf("SEARCH %-10s %-12s p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms  CPU p50 %6.2f p99 %6.2f ms  (avg %.1f results, %d queries)\n", s.name, b.name,
			ms(lat[len(lat)/2]), ms(lat[len(lat)*99/100]), ms(lat[len(lat)-1]), ms(cpus[len(cpus)/2]), ms(cpus[len(cpus)*99/100]),
			float64(hits)/float64(len(lat)), len(lat))
	}
	return nil
}

func sortDurations(d []time.Duration) { sort.Slice(d, func(i, j int) bool { return d[i] < d[j] }) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func sizes(home string, text int64) error {
	db := fileSize(filepath.Join(home, "ledger.db")) + fileSize(filepath.Join(home, "ledger.db-wal"))
	var segs int64
	filepath.Walk(filepath.Join(home, "segments"), func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			segs += fi.Size()
		}
		return nil
	})
	fmt.Printf("SIZE text %.1f MB, ledger.db+WAL %.1f MB (%.2fx text), segments %.1f MB (%.2fx text), data home %.1f MB (%.2fx text)\n",
		mb(text), mb(db), float64(db)/float64(text), mb(segs), float64(segs)/float64(text), mb(db+segs), float64(db+segs)/float64(text))
	return nil
}

// serverSize reports a server ledger's database size (Health) against the text.
func serverSize(ctx context.Context, db ledger.Ledger, home string, text int64) error {
	h, err := db.Health(ctx, ledger.HealthOptions{})
	if err != nil {
		return err
	}
	for _, p := range h.Sizes {
		fmt.Printf("SIZE %s %.1f MB (%.2fx text %.1f MB)\n", p.Name, mb(p.Bytes), float64(p.Bytes)/float64(text), mb(text))
	}
	return nil
}

func fileSize(p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return fi.Size()
}

func mb(n int64) float64 { return float64(n) / 1e6 }

// serverCPU is the CPU time of a PostgreSQL server so far: the postmaster
// with its reaped children, plus its live children (the backends). 0 when
// pid is 0 or /proc cannot tell (not Linux).
func serverCPU(pid int) time.Duration {
	if pid <= 0 {
		return 0
	}
	total := procTicks(pid, true)
	kids, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	for _, k := range strings.Fields(string(kids)) {
		if n, err := strconv.Atoi(k); err == nil {
			total += procTicks(n, false)
		}
	}
	return time.Duration(total) * 10 * time.Millisecond // USER_HZ is 100 on Linux
}

// procTicks is utime+stime of pid (with cutime+cstime: its reaped
// children's), in clock ticks.
func procTicks(pid int, children bool) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	var t int64
	last := 12
	if children {
		last = 14
	}
	for i := 11; i <= last && i < len(f); i++ {
		n, _ := strconv.ParseInt(f[i], 10, 64)
		t += n
	}
	return t
}
