package transcript

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// The benchmark corpus mimics Claude Code JSONL (docs: tech-and-perf §2):
// 6% string prompts, 30% assistant text with usage, 30% Bash/Edit tool_use,
// 33% tool results duplicated in toolUseResult, 1% summaries; line lengths
// from ~200 B to ~46 KB with escapes, tabs, HTML-ish text and non-ASCII.

const benchSeed = 20261130

var benchWords = strings.Fields(`the import reads transcript lines func main() { return nil } <div class="x">
	naïve café 日本語 emoji 😀 "quoted" back\slash tab	tab SELECT * FROM events WHERE id = ?; if err != nil
	ledger cursor offset checksum handoff packet worktree lease heartbeat`)

func benchText(rng *rand.Rand, n int) string {
	var sb strings.Builder
	for sb.Len() < n {
		sb.WriteString(benchWords[rng.Intn(len(benchWords))])
		switch rng.Intn(12) {
		case 0:
			sb.WriteString("\n")
		case 1:
			sb.WriteString("\t")
		default:
			sb.WriteString(" ")
		}
	}
	return sb.String()
}

// benchSize draws a text length with a long tail: median ~1 KB, p90 ~9 KB.
func benchSize(rng *rand.Rand) int {
	switch r := rng.Intn(100); {
	case r < 50:
		return 200 + rng.Intn(1000)
	case r < 90:
		return 1200 + rng.Intn(8000)
	default:
		return 9000 + rng.Intn(36000)
	}
}

func benchRecord(rng *rand.Rand, i int) any {
	base := map[string]any{"parentUuid": fmt.Sprintf("p-%d", i-1), "isSidechain": false, "userType": "external",
		"cwd": "/home/user/project", "sessionId": "bench", "version": "2.1.332", "gitBranch": "main",
		"uuid": fmt.Sprintf("u-%d", i), "timestamp": "2026-11-30T01:00:00.000Z"}
	switch r := rng.Intn(100); {
	case r < 6:
		base["type"], base["message"] = "user", map[string]any{"role": "user", "content": benchText(rng, benchSize(rng)/4)}
	case r < 36:
		base["type"], base["message"] = "assistant", map[string]any{"role": "assistant", "model": "claude-opus-4-8",
			"content": []any{map[string]any{"type": "text", "text": benchText(rng, benchSize(rng))}},
			"usage":   map[string]any{"input_tokens": rng.Intn(9000), "output_tokens": rng.Intn(900)}}
	case r < 66:
		input := map[string]any{"command": benchText(rng, 80), "description": "run it"}
		name := "Bash"
		if rng.Intn(2) == 0 {
			name, input = "Edit", map[string]any{"file_path": "/home/user/project/main.go",
				"old_string": benchText(rng, benchSize(rng)/2), "new_string": benchText(rng, benchSize(rng)/2)}
		}
		base["type"], base["message"] = "assistant", map[string]any{"role": "assistant",
			"content": []any{map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", i), "name": name, "input": input}}}
	case r < 99:
		out := benchText(rng, benchSize(rng)/2)
		var content any = out
		if rng.Intn(2) == 0 {
			content = []any{map[string]any{"type": "text", "text": out}}
		}
		base["type"], base["message"] = "user", map[string]any{"role": "user",
			"content": []any{map[string]any{"type": "tool_result", "tool_use_id": fmt.Sprintf("toolu_%d", i-1), "content": content}}}
		base["toolUseResult"] = map[string]any{"stdout": out, "stderr": "", "interrupted": false}
	default:
		return map[string]any{"type": "summary", "summary": benchText(rng, 60), "leafUuid": fmt.Sprintf("u-%d", i-1)}
	}
	return base
}

// writeBenchCorpus streams a seeded corpus of about size bytes to path.
func writeBenchCorpus(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	rng := rand.New(rand.NewSource(benchSeed))
	var n int64
	for i := 0; n < size; i++ {
		if err := enc.Encode(benchRecord(rng, i)); err != nil {
			f.Close()
			return err
		}
		n = int64(w.Buffered()) + mustSize(f)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func mustSize(f *os.File) int64 {
	st, err := f.Stat()
	if err != nil {
		return 0
	}
	return st.Size()
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
		err := src.Read(context.Background(), Session{Path: path}, Cursor{}, ReadOptions{}, func(bt Batch) error {
			events += len(bt.Events)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(events), "events/read")
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB")
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
