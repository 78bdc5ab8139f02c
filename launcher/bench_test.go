package launcher

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/sqlite"
	"github.com/ai-memory/ai-memory/transcript"
)

// The import benchmark reads a seeded synthetic Claude Code session (package
// transcript/internal/synth) end to end into a fresh ledger. Environment:
// AI_MEMORY_BENCH_IMPORT_FILE=<store>/projects/<dir>/<id>.jsonl uses an
// existing session file (scripts/bench-import.sh caches one); otherwise
// AI_MEMORY_BENCH_MB (default 200) MiB are generated once per test binary.

var (
	importOnce sync.Once
	importPath string
	importErr  error
)

// benchSession returns the session to import and the store env to find it.
func benchSession(b *testing.B) transcript.Session {
	if p := os.Getenv("AI_MEMORY_BENCH_IMPORT_FILE"); p != "" {
		return findBenchSession(b, p)
	}
	importOnce.Do(func() { importPath, importErr = generateSession() })
	if importErr != nil {
		b.Fatal(importErr)
	}
	return findBenchSession(b, importPath)
}

// generateSession runs synthgen (launcher may not import transcript's
// internal generator package) into a temporary store.
func generateSession() (string, error) {
	mb := os.Getenv("AI_MEMORY_BENCH_MB")
	if _, err := strconv.Atoi(mb); err != nil {
		mb = "200"
	}
	dir, err := os.MkdirTemp("", "launcher-bench-")
	if err != nil {
		return "", err
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if p, err := exec.LookPath("go"); err == nil {
		goTool = p
	}
	cmd := exec.Command(goTool, "run", "../transcript/internal/synth/synthgen",
		"-store", filepath.Join(dir, ".claude"), "-cwd", filepath.Join(dir, "project"), "-mb", mb)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// findBenchSession looks the file up the way the launcher does: by id, in
// the store that holds it (<store>/projects/<dir>/<id>.jsonl).
func findBenchSession(b *testing.B, path string) transcript.Session {
	store := filepath.Dir(filepath.Dir(filepath.Dir(path)))
	env := transcript.Env{Getenv: func(k string) string {
		if k == "CLAUDE_CONFIG_DIR" {
			return store
		}
		return ""
	}}
	src := transcript.ClaudeSource()
	s, ex, err := src.Find(env, strings.TrimSuffix(filepath.Base(path), ".jsonl"))
	if ex != transcript.Present {
		b.Fatalf("benchmark session %s: %v (%v)", path, ex, err)
	}
	return s
}

// BenchmarkImport: MB/s of one session imported end to end (read, redact,
// segment, events + FTS index, cursor) into an empty ledger.
func BenchmarkImport(b *testing.B) {
	sess := benchSession(b)
	src := transcript.ClaudeSource()
	b.SetBytes(sess.Size)
	b.ReportAllocs()
	var added int
	for b.Loop() {
		b.StopTimer()
		im, done := newBenchImporter(b)
		b.StartTimer()
		st, err := im.Import(context.Background(), src, sess)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		done()
		added = st.Added
		b.StartTimer()
	}
	b.ReportMetric(float64(added), "events/import")
	b.ReportMetric(float64(added)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	if mb, ok := peakRSSMB(); ok {
		b.ReportMetric(mb, "peak-RSS-MB")
	}
}

// newBenchImporter opens an empty ledger with one workstream under lease,
// as `ai-memory import` does, and returns the importer and its cleanup.
func newBenchImporter(b *testing.B) (*Importer, func()) {
	ctx := context.Background()
	home, err := os.MkdirTemp("", "launcher-bench-ledger-")
	if err != nil {
		b.Fatal(err)
	}
	db, err := sqlite.Open(ctx, home)
	if err != nil {
		b.Fatal(err)
	}
	ws, err := db.SelectWorkstream(ctx, ledger.Scope{RepoFingerprint: "bench-repo", WorktreeFingerprint: "bench-worktree", Cwd: home}, ledger.Selector{})
	if err != nil {
		b.Fatal(err)
	}
	run, _, err := db.AcquireLease(ctx, ws.ID, "import", ledger.CurrentOwner())
	if err != nil {
		b.Fatal(err)
	}
	return &Importer{DB: db, WorkstreamID: ws.ID, RunID: run.ID}, func() {
		db.Close()
		os.RemoveAll(home)
	}
}

// TestMain removes the generated benchmark session.
func TestMain(m *testing.M) {
	code := m.Run()
	if importPath != "" {
		os.RemoveAll(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(importPath)))))
	}
	os.Exit(code)
}
