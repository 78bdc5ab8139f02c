package redact

import (
	"strings"
	"testing"
)

// mixedText builds about size bytes of transcript-like text: prose, code,
// JSON tool output and shell logs full of keywords ("token", "key",
// "Bearer", URLs), with a real-looking secret every 40 lines.
func mixedText(size int) string {
	lines := []string{
		"I'll update the handler so the retry loop respects the context deadline.",
		"func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {",
		"\tif err := s.db.QueryRowContext(ctx, q, key).Scan(&v); err != nil {",
		`{"type":"tool_result","content":"ok  \tgithub.com/acme/api\t0.412s","is_error":false}`,
		"$ curl -s https://api.example.com/v1/items?page=2 | jq '.items[].id'",
		"The access token is refreshed by the middleware before it expires; see auth.go.",
		"MAX_TOKENS=4096 SORT_KEY=name CACHE_KEY: users",
		"commit 9fceb02d0ae598e95dc970b74767f19372d61af8 (task-1234, id 123e4567-e89b-12d3-a456-426614174000)",
		"Use a Bearer token from the environment; never hard-code the api key.",
		"postgres://app@db.internal:5432/app?sslmode=disable",
	}
	secrets := []string{
		"export OPENAI_API_KEY=" + skProj,
		"Authorization: Bearer " + fill(40),
		"git remote set-url origin https://x-access-token:" + ghs + "@github.com/o/r.git",
		`{"aws_secret_access_key": "` + awsSecret + `", "id": "` + akia + `"}`,
		"cookie=" + jwt,
	}
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		if i%40 == 39 {
			b.WriteString(secrets[(i/40)%len(secrets)])
		} else {
			b.WriteString(lines[i%len(lines)])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func benchmarkString(b *testing.B, s string) {
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		String(s)
	}
}

// BenchmarkMixed1MB is the speed target: one MiB of keyword-dense text with
// secrets in it.
func BenchmarkMixed1MB(b *testing.B) { benchmarkString(b, mixedText(1<<20)) }

// BenchmarkProse1MB is text without any keyword: only the keyword scan runs.
func BenchmarkProse1MB(b *testing.B) {
	benchmarkString(b, strings.Repeat("The quick brown fox jumps over the lazy dog again.\n", 1<<20/51))
}

// BenchmarkEvent2KB is one typical event as the ledger redacts it.
func BenchmarkEvent2KB(b *testing.B) { benchmarkString(b, mixedText(2<<10)) }

// BenchmarkShortClean is the most frequent call: a short field (an id, a
// metadata value, a one-line message) with nothing to redact.
func BenchmarkShortClean(b *testing.B) {
	benchmarkString(b, "Ran the tests: ok github.com/acme/api 0.412s (cached)")
}
