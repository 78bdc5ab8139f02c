package transcript

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// opencodeBenchParts is the size of the generated store: >= 100k parts.
const opencodeBenchParts = 120_000

// writeOpenCodeBenchDB writes a seeded OpenCode store in the real 1.18.33
// schema (testdata/opencode/*/schema.sql) holding one session of checkout
// with parts parts, in the mix a coding session has: per turn a user text,
// then steps of step-start, a tool call (input ~100 B, output 0.2-4 KB) or
// assistant text, step-finish; reasoning now and then.
func writeOpenCodeBenchDB(path, schema, checkout string, parts int) error {
	dsn := "file:" + (&url.URL{Path: filepath.ToSlash(path)}).EscapedPath() + "?_pragma=journal_mode(WAL)&_pragma=synchronous(OFF)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(schema); err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`INSERT INTO project (id, worktree, time_created, time_updated, sandboxes) VALUES ('p', ?, 1, 1, '[]');
		INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated)
		VALUES ('ses_bench', 'p', 'bench', ?, 'bench', '1.18.33', 1, 1)`, checkout, checkout); err != nil {
		return err
	}
	msg, err := tx.Prepare(`INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, 'ses_bench', ?, ?, ?)`)
	if err != nil {
		return err
	}
	part, err := tx.Prepare(`INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, 'ses_bench', ?, ?, ?)`)
	if err != nil {
		return err
	}
	g := opencodeGen{rng: rand.New(rand.NewPCG(11, 0)), t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()}
	for n := 0; n < parts; {
		role, datas := g.message()
		mid := g.id("msg")
		if _, err := msg.Exec(mid, g.t, g.t+int64(len(datas)), `{"role":"`+role+`"}`); err != nil {
			return err
		}
		for _, d := range datas {
			g.t++
			if _, err := part.Exec(g.id("prt"), mid, g.t, g.t, d); err != nil {
				return err
			}
			n++
		}
	}
	return tx.Commit()
}

type opencodeGen struct {
	rng *rand.Rand
	t   int64
	seq int
}

func (g *opencodeGen) id(prefix string) string {
	g.seq++
	return fmt.Sprintf("%s_%012x%08d", prefix, g.t, g.seq)
}

func (g *opencodeGen) text(n int) string {
	const words = "the quick brown fox jumps over a lazy dog while tests run and code compiles "
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(words[g.rng.IntN(len(words)/2):])
	}
	return b.String()[:n]
}

// message returns a user message (one text part) or an assistant message
// (a few steps), as part data.
func (g *opencodeGen) message() (string, []string) {
	if g.rng.IntN(4) == 0 {
		return "user", []string{`{"type":"text","text":"` + g.text(40+g.rng.IntN(400)) + `"}`}
	}
	var parts []string
	for steps := 1 + g.rng.IntN(4); steps > 0; steps-- {
		parts = append(parts, `{"type":"step-start","snapshot":"96e9ce5aded7a6657a4ddceac38507ddf6b30437"}`)
		if g.rng.IntN(5) == 0 {
			parts = append(parts, `{"type":"reasoning","text":"`+g.text(300)+`","time":{"start":1,"end":2}}`)
		}
		if g.rng.IntN(3) > 0 {
			parts = append(parts, `{"type":"tool","tool":"bash","callID":"call_`+fmt.Sprint(g.seq)+`","state":{"status":"completed","input":{"command":"`+g.text(80)+`"},"output":"`+g.text(200+g.rng.IntN(4000))+`","metadata":{"exit":0},"title":"t","time":{"start":1,"end":2}}}`)
		} else {
			parts = append(parts, `{"type":"text","text":"`+g.text(100+g.rng.IntN(1500))+`","time":{"start":1,"end":2}}`)
		}
		parts = append(parts, `{"type":"step-finish","reason":"stop","tokens":{"total":1,"input":1,"output":0,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}`)
	}
	return "assistant", parts
}

// opencodeBenchStore returns the generated store:
// $AI_MEMORY_OPENCODE_BENCH_HOME when set (scripts/bench-opencode.sh makes
// it in a separate process, so peak RSS is the reader's), else one in a
// temporary HOME (a b.Loop benchmark function runs once).
func opencodeBenchStore(b *testing.B) opencodeStore {
	home := os.Getenv("AI_MEMORY_OPENCODE_BENCH_HOME")
	if home == "" {
		home = b.TempDir()
		if err := genOpenCodeBenchHome(b, home); err != nil {
			b.Fatal(err)
		}
	}
	st := opencodeStore{home: home, checkout: filepath.Join(home, "project"),
		env: Env{Home: home, Getenv: func(string) string { return "" }}}
	st.db = opencodeSource{}.dbPath(st.env)
	return st
}

func genOpenCodeBenchHome(t testing.TB, home string) error {
	st := opencodeStore{home: home, checkout: filepath.Join(home, "project"), env: Env{Home: home}}
	st.db = opencodeSource{}.dbPath(st.env)
	for _, d := range []string{st.checkout, filepath.Dir(st.db)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	return writeOpenCodeBenchDB(st.db, opencodeSchema(t), st.checkout, opencodeBenchParts)
}

// TestGenerateOpenCodeBenchStore writes the store under
// $AI_MEMORY_OPENCODE_BENCH_GEN (a HOME); it does nothing otherwise.
func TestGenerateOpenCodeBenchStore(t *testing.T) {
	home := os.Getenv("AI_MEMORY_OPENCODE_BENCH_GEN")
	if home == "" {
		t.Skip("set AI_MEMORY_OPENCODE_BENCH_GEN=<dir> to generate the OpenCode benchmark store")
	}
	if err := genOpenCodeBenchHome(t, home); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkReadOpenCode120kParts: import speed (parts/s) of one session of
// 120k parts from zero, and peak RSS.
func BenchmarkReadOpenCode120kParts(b *testing.B) {
	st := opencodeBenchStore(b)
	ss, err := opencodeSource{}.List(st.env, st.checkout, 1)
	if err != nil || len(ss) != 1 {
		b.Fatalf("bench store: %v, %v", ss, err)
	}
	b.ReportAllocs()
	events, start := 0, time.Now()
	for b.Loop() {
		events = 0
		err := opencodeSource{}.ReadFrom(context.Background(), ss[0], OpenCodeCursor{}, ReadOptions{}, func(bt OpenCodeBatch) error {
			events += len(bt.Events)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(opencodeBenchParts)*float64(b.N)/time.Since(start).Seconds(), "parts/s")
	b.ReportMetric(float64(events), "events/read")
	if mb, ok := peakRSSMB(); ok {
		b.ReportMetric(mb, "peak-RSS-MB")
	}
}
