package durable

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/internal/benchgen"
)

func benchSegment(t testing.TB) []byte {
	g := benchgen.New(1)
	recs := make([]Record, 400)
	now := time.Unix(1_700_000_000, 0).UTC()
	for i := range recs {
		in := ledger.EventInput{Harness: "claude", NativeSessionID: "00000000-0000-4000-8000-000000000001",
			SourceRecordID: fmt.Sprintf("%08d-aaaa-4bbb-8ccc-dddddddddddd", i), Kind: ledger.KindMessage, Role: "assistant",
			OccurredAt: now.Add(time.Duration(i) * time.Second), Content: g.Content(500)}
		p, _ := NewPending(in)
		recs[i] = ToRecord("01a23379-418d-7e83-adca-4c46712bf4fb", "bench", int64(i+1), p, now)
	}
	data, err := EncodeSegment(recs)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// BenchmarkCodec compares the segment codecs on a benchmark-like segment
// (400 events of ~500 B): go test ./ledger -run X -bench Codec -count 5.
// The ratio metric is compressed/uncompressed.
func BenchmarkCodec(b *testing.B) {
	data := benchSegment(b)
	ze, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	zd2, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
	zdec, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	zout := ze.EncodeAll(data, nil)
	var gbuf bytes.Buffer
	gw, _ := gzip.NewWriterLevel(&gbuf, 6)
	gw.Write(data)
	gw.Close()
	gout := append([]byte(nil), gbuf.Bytes()...)
	for _, c := range []struct {
		name string
		fn   func()
	}{
		{"enc/zstd-fastest", func() { ze.EncodeAll(data, nil) }},
		{"enc/zstd-default", func() { zd2.EncodeAll(data, nil) }},
		{"enc/gzip-1", func() { var buf bytes.Buffer; w, _ := gzip.NewWriterLevel(&buf, 1); w.Write(data); w.Close() }},
		{"enc/gzip-6", func() { var buf bytes.Buffer; w, _ := gzip.NewWriterLevel(&buf, 6); w.Write(data); w.Close() }},
		{"dec/zstd", func() { zdec.DecodeAll(zout, nil) }},
		{"dec/gzip", func() { r, _ := gzip.NewReader(bytes.NewReader(gout)); io.ReadAll(r) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				c.fn()
			}
		})
	}
	for name, n := range map[string]int{"zstd-fastest": len(zout), "gzip-6": len(gout)} {
		b.Run("ratio/"+name, func(b *testing.B) { b.ReportMetric(float64(n)/float64(len(data)), "ratio") })
	}
}
