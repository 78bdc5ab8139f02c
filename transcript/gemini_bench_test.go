package transcript

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// writeGeminiCorpus writes a seeded Gemini CLI chat file of about size
// bytes with the record mix of the real fixtures: per turn a user prompt,
// a gemini message written twice (then again with its tool call and
// result attached), the user functionResponse copy, the final answer, and
// a $set lastUpdated patch after each message; prose of 200 B to 8 KB and
// tool output of 1 to 32 KB.
func writeGeminiCorpus(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(11, 5))
	words := strings.Fields("the quick brown fox jumps over a lazy dog while reading go code and tests in the repo")
	text := func(n int) string {
		var b strings.Builder
		for b.Len() < n {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		return b.String()
	}
	q := func(s string) string { return fmt.Sprintf("%q", s) }
	var n int64
	put := func(s string) { k, _ := w.WriteString(s + "\n"); n += int64(k) }
	put(`{"sessionId":"bench000-1ac2-4ace-9d95-f477a43d7aab","projectHash":"` + GeminiProjectHash("/home/user/project") + `","startTime":"2026-12-01T21:16:25.970Z","lastUpdated":"2026-12-01T21:16:25.970Z","kind":"main"}`)
	const ts = `"timestamp":"2026-12-01T21:16:26.033Z"`
	tokens := `"tokens":{"input":12214,"output":14,"cached":0,"thoughts":0,"tool":0,"total":12228},"model":"gemini-2.5-pro"`
	patch := `{"$set":{"lastUpdated":"2026-12-01T21:16:26.033Z"}}`
	for turn := 0; n < size; turn++ {
		put(fmt.Sprintf(`{"id":"u-%d",%s,"type":"user","content":[{"text":%s}]}`, turn, ts, q(text(200+rng.IntN(2000)))))
		put(patch)
		g := fmt.Sprintf(`{"id":"g-%d",%s,"type":"gemini","content":%s,"thoughts":[],%s`, turn, ts, q(text(200+rng.IntN(4000))), tokens)
		put(g + "}")
		put(patch)
		out := q(text(1024 + rng.IntN(32<<10)))
		call := fmt.Sprintf(`c-%d`, turn)
		resp := fmt.Sprintf(`{"functionResponse":{"id":%q,"name":"run_shell_command","response":{"output":%s}}}`, call, out)
		put(fmt.Sprintf(`%s,"toolCalls":[{"id":%q,"name":"run_shell_command","args":{"command":"go test ./..."},"result":[%s],"status":"success",%s}]}`, g, call, resp, ts))
		put(fmt.Sprintf(`{"id":"r-%d",%s,"type":"user","content":[%s]}`, turn, ts, resp))
		put(patch)
		put(fmt.Sprintf(`{"id":"a-%d",%s,"type":"gemini","content":%s,"thoughts":[],%s}`, turn, ts, q(text(200+rng.IntN(8000))), tokens))
		put(patch)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// TestGenerateGeminiBenchCorpus writes the Gemini corpus to
// $AI_MEMORY_BENCH_GEN_GEMINI (scripts/bench-transcript-gemini.sh).
func TestGenerateGeminiBenchCorpus(t *testing.T) {
	p := os.Getenv("AI_MEMORY_BENCH_GEN_GEMINI")
	if p == "" {
		t.Skip("set AI_MEMORY_BENCH_GEN_GEMINI=<path> to generate the Gemini benchmark corpus")
	}
	if err := writeGeminiCorpus(p, 200<<20); err != nil {
		t.Fatal(err)
	}
}

// TestGeminiCorpusImportsEachTurnOnce: the generator's turns come out as
// five events each, whatever the superseding lines.
func TestGeminiCorpusImportsEachTurnOnce(t *testing.T) {
	path := t.TempDir() + "/g.jsonl"
	if err := writeGeminiCorpus(path, 1<<20); err != nil {
		t.Fatal(err)
	}
	r := readAll(t, geminiSource{}, path, Cursor(""), ReadOptions{})
	turns := 0
	for _, e := range r.events {
		if e.Kind == KindMessage && e.Role == RoleUser {
			turns++
		}
	}
	if turns == 0 || len(r.events) != 5*turns {
		t.Fatalf("%d events for %d turns, want 5 per turn", len(r.events), turns)
	}
}

// BenchmarkReadGemini200MB: reader throughput (MB/s) and peak RSS over the
// Gemini corpus ($AI_MEMORY_BENCH_FILE_GEMINI, else generated once).
func BenchmarkReadGemini200MB(b *testing.B) {
	path := os.Getenv("AI_MEMORY_BENCH_FILE_GEMINI")
	if path == "" {
		path = b.TempDir() + "/gemini-200mb.jsonl"
		if err := writeGeminiCorpus(path, 200<<20); err != nil {
			b.Fatal(err)
		}
	}
	benchRead(b, geminiSource{}, path)
}
