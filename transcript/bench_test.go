package transcript

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ai-memory/ai-memory/transcript/internal/synth"
)

// writeBenchCorpus writes the seeded ~200 MB Claude-like corpus (see
// package synth for its mix) to path.
func writeBenchCorpus(path string, size int64) error {
	return synth.Claude{}.WriteFile(path, size)
}

var (
	benchOnce sync.Once
	benchPath string
	benchErr  error
)

// benchCorpus returns the 200 MB corpus: $AI_MEMORY_BENCH_FILE when set
// (scripts/bench-transcript.sh generates it in a separate process so peak RSS
// measures the reader alone), else a file generated once per test binary.
func benchCorpus(b *testing.B) string {
	if p := os.Getenv("AI_MEMORY_BENCH_FILE"); p != "" {
		return p
	}
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "transcript-bench-")
		if err != nil {
			benchErr = err
			return
		}
		benchPath = filepath.Join(dir, "claude-200mb.jsonl")
		benchErr = writeBenchCorpus(benchPath, 200<<20)
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchPath
}

// TestMain removes the generated benchmark corpus.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchPath != "" {
		os.RemoveAll(filepath.Dir(benchPath))
	}
	os.Exit(code)
}

// TestGenerateBenchCorpus writes the corpus to $AI_MEMORY_BENCH_GEN (used by
// scripts/bench-transcript.sh); it does nothing otherwise.
func TestGenerateBenchCorpus(t *testing.T) {
	p := os.Getenv("AI_MEMORY_BENCH_GEN")
	if p == "" {
		t.Skip("set AI_MEMORY_BENCH_GEN=<path> to generate the benchmark corpus")
	}
	if err := writeBenchCorpus(p, 200<<20); err != nil {
		t.Fatal(err)
	}
}

func benchRead(b *testing.B, src Source, path string) {
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	events := 0
	for b.Loop() {
		events = 0
		err := src.Read(context.Background(), Session{Path: path}, Cursor(""), ReadOptions{}, func(bt Batch) error {
			events += len(bt.Events)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(events), "events/read")
	if mb, ok := peakRSSMB(); ok {
		b.ReportMetric(mb, "peak-RSS-MB")
	}
}

// BenchmarkReadClaude200MB: reader throughput (MB/s) over the corpus.
func BenchmarkReadClaude200MB(b *testing.B) {
	benchRead(b, claudeSource{}, benchCorpus(b))
}

// BenchmarkRead15MBLine: a 15 MB record between normal ones is skipped in
// constant memory (the file is written in chunks so that the peak RSS
// reported is the reader's).
func BenchmarkRead15MBLine(b *testing.B) {
	path := filepath.Join(b.TempDir(), "huge.jsonl")
	if err := writeHugeLineFile(path, 15<<20); err != nil {
		b.Fatal(err)
	}
	benchRead(b, claudeSource{}, path)
}

// writeHugeLineFile writes a normal record, one record with a text of n
// bytes, and another normal record.
func writeHugeLineFile(path string, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.WriteString(claudeLine("u1", "a"))
	w.WriteString(`{"type":"user","uuid":"u2","message":{"role":"user","content":"`)
	chunk := strings.Repeat("z", 64<<10)
	for ; n > 0; n -= len(chunk) {
		w.WriteString(chunk[:min(n, len(chunk))])
	}
	w.WriteString("\"}}\n")
	w.WriteString(claudeLine("u3", "b"))
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
