package launcher

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/transcript"
)

// BenchmarkLaunchPhases attributes the launcher's work before the agent
// starts (scripts/bench-launcher.sh measures the total from outside): each
// step of launch.execute up to the spawn, in the same order, on a warm
// ledger in a git checkout whose linked Claude session exists, as on a
// second `ai-memory run claude -p x`. It reports milliseconds per phase.
// AI_MEMORY_BENCH_LEDGER names another ledger (a postgres:// URL) to
// measure the phases against.
// Keep the steps in step with launch.execute and launch.prepare.
func BenchmarkLaunchPhases(b *testing.B) {
	env := phaseSandbox(b)
	ctx := context.Background()
	ph := newPhaseClock()
	oneLaunch(b, ctx, env, newPhaseClock()) // creates the ledger and links the session
	for b.Loop() {
		oneLaunch(b, ctx, env, ph)
	}
	ph.report(b)
}

// oneLaunch runs the pre-spawn steps of one launch under ph, then closes
// the run as a finished one (untimed).
func oneLaunch(b *testing.B, ctx context.Context, env Env, ph *phaseClock) {
	h, _ := harness.Lookup("claude")
	src := transcript.ClaudeSource()
	o := Options{Harness: "claude", Args: []string{"-p", "x"}}
	intent, err := h.Planner.Parse(o.Args, false)
	if err != nil {
		b.Fatal(err)
	}
	l := &launch{o: o, env: env, h: h, src: src, exe: "/bin/true", intent: intent}
	var reclaimed []ledger.Run
	ph.step(b, "open-ledger", func() (err error) { l.db, err = openLedger(l.env); return err })
	ph.step(b, "workstream", func() error { return l.selectWorkstream(ctx) })
	ph.step(b, "lease", func() (err error) {
		l.run, reclaimed, err = acquire(ctx, l.db, l.ws.ID, l.h.Name, env.Stderr)
		l.started, l.hb = env.Now(), startHeartbeat(ctx, l.db, l.run)
		return err
	})
	ph.step(b, "recover", func() error { l.index = newIndexer(l); l.recoverRuns(ctx, reclaimed); return nil })
	ph.step(b, "decide", func() (err error) { l.choice, err = l.decide(ctx); return err })
	ph.step(b, "packet", func() (err error) { l.packet, err = l.buildPacket(ctx); return err })
	ph.step(b, "plan", l.buildPlan)
	// After the spawn in launch.spawnAndFinish: timed apart, not on the
	// agent's start-up path.
	ph.step(b, "after-spawn:session-index", func() error { l.index.start(l.plan.SessionID); return nil })
	ph.step(b, "after-spawn:run-sync", func() error { return l.db.SetRunSync(ctx, l.run.ID, l.packet.after, l.packet.through) })
	b.StopTimer()
	closeLaunch(b, ctx, l)
	b.StartTimer()
}

// closeLaunch ends the run as if the agent had exited 0 after creating (or
// resuming) its session, so the next launch resumes the linked session.
func closeLaunch(b *testing.B, ctx context.Context, l *launch) {
	sid := l.choice.resume
	if sid == "" {
		sid = l.plan.SessionID
	}
	writeClaudeSession(b, l.env, l.id.Root, sid)
	l.db.LinkSession(ctx, l.ws.ID, "claude", sid)
	l.index.end(sid)
	code := 0
	if err := l.db.FinishRun(ctx, l.run.ID, &code); err != nil {
		b.Fatal(err)
	}
	l.closed = true
	l.release(ctx)
	l.db.Close()
}

// writeClaudeSession writes a two-record session file where Claude Code
// keeps it, unless it exists.
func writeClaudeSession(b *testing.B, env Env, root, id string) {
	dir := transcript.ClaudeProjectDir(filepath.Join(env.Getenv("HOME"), ".claude"), root)
	path := filepath.Join(dir, id+".jsonl")
	if _, err := os.Stat(path); err == nil {
		return
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	rec := `{"type":"%s","uuid":"u%d","sessionId":"%s","cwd":"%s","timestamp":"2026-11-30T01:00:00.000Z","message":{"role":"%[1]s","content":"hello %[2]d"}}` + "\n"
	data := fmt.Sprintf(rec, "user", 1, id, root) + fmt.Sprintf(rec, "assistant", 2, id, root)
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		b.Fatal(err)
	}
}

// phaseSandbox is a git checkout with its own HOME and AI_MEMORY_HOME.
func phaseSandbox(b *testing.B) Env {
	dir, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	repoDir := filepath.Join(dir, "repo")
	if out, err := exec.Command("git", "init", "-q", repoDir).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v: %s", err, out)
	}
	vars := map[string]string{"HOME": filepath.Join(dir, "home"), "AI_MEMORY_HOME": filepath.Join(dir, "data")}
	if url := os.Getenv("AI_MEMORY_BENCH_LEDGER"); url != "" {
		vars["AI_MEMORY_LEDGER"] = url // e.g. a postgres:// URL: the phases of a launch on a shared ledger
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { null.Close() })
	return Env{Stdin: null, Stdout: null, Stderr: null, Dir: repoDir, Self: "/bin/true",
		Getenv: func(k string) string { return vars[k] }, Environ: []string{"HOME=" + vars["HOME"]},
		LookPath: exec.LookPath, Now: time.Now}
}

// phaseClock sums the time of named steps across iterations.
type phaseClock struct {
	names []string
	sum   map[string]time.Duration
}

func newPhaseClock() *phaseClock { return &phaseClock{sum: map[string]time.Duration{}} }

func (p *phaseClock) step(b *testing.B, name string, f func() error) {
	t := time.Now()
	if err := f(); err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	if _, ok := p.sum[name]; !ok {
		p.names = append(p.names, name)
	}
	p.sum[name] += time.Since(t)
}

func (p *phaseClock) report(b *testing.B) {
	for _, n := range p.names {
		b.ReportMetric(float64(p.sum[n])/float64(b.N)/1e6, n+"-ms")
	}
}
