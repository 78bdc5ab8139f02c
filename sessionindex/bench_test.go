package sessionindex

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkStart measures one locked, fsynced start against a full index
// (the per-launch cost `ai-memory run` pays).
func BenchmarkStart(b *testing.B) {
	clk := newClock("2026-08-04T16:41:42Z")
	s := &Store{Root: b.TempDir(), Now: clk.Now, Alive: func(string, string) bool { return false }}
	for i := 0; i < DefaultHistoryLimit; i++ {
		if _, err := s.Start(StartOptions{Runtime: "codex", NativeID: fmt.Sprint("seed-", i)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		clk.Add(time.Second)
		if _, err := s.Start(StartOptions{Runtime: "codex", NativeID: fmt.Sprint("n-", i)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseEncode measures the codec alone on a full index.
func BenchmarkParseEncode(b *testing.B) {
	ix := Index{HistoryLimit: DefaultHistoryLimit}
	for i := 0; i < DefaultHistoryLimit; i++ {
		ix.Sessions = append(ix.Sessions, Record{ID: fmt.Sprint("20260804-1641-codex-", i), Runtime: "codex",
			NativeSessionID: fmt.Sprint("019f-", i), Started: time.Unix(int64(i), 0), Status: StatusEnded, Focus: "some focus text"})
	}
	data, err := encodeFile(ix)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		parsed, err := parseIndex(data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := encodeFile(parsed); err != nil {
			b.Fatal(err)
		}
	}
}
