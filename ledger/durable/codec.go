package durable

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Event segments are written zstd-compressed (`.jsonl.zst`). zstd's fastest
// level beat gzip on both counts for segment JSONL (measured in
// docs/ledger.md): a smaller file than gzip -1 and faster to write and read
// than gzip at any level. Readers accept every form ever written, by
// content rather than by name: zstd, gzip, and the uncompressed `.jsonl`
// of earlier versions, forever.
const SegmentExt = ".jsonl.zst"

// LegacySegmentExt is the uncompressed segment of earlier versions.
const LegacySegmentExt = ".jsonl"

var (
	ZstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
	gzipMagic = []byte{0x1f, 0x8b}
)

// The codecs are built on first use, not at process start (the launcher's
// start-up path opens the ledger but writes no segment). Both are safe for
// concurrent EncodeAll/DecodeAll; single-threaded encoding keeps the output
// (and so the content-addressed name's file) deterministic.
var (
	zstdEncoder = sync.OnceValues(func() (*zstd.Encoder, error) {
		return zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1),
			zstd.WithZeroFrames(true))
	})
	zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
		return zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<30))
	})
)

// CompressSegment returns the bytes an event segment file holds.
func CompressSegment(jsonl []byte) ([]byte, error) {
	enc, err := zstdEncoder()
	if err != nil {
		return nil, fmt.Errorf("compress segment: %w", err)
	}
	return enc.EncodeAll(jsonl, make([]byte, 0, len(jsonl)/3)), nil
}

// IsSegmentFile reports whether a file name is an event segment, of any
// version.
func IsSegmentFile(name string) bool {
	return !strings.HasPrefix(name, ".") && (strings.HasSuffix(name, SegmentExt) || strings.HasSuffix(name, LegacySegmentExt))
}

// ReadSegmentFile returns the decoded content of a segment or state file.
// It is the one way every reader (Rebuild, tests, tools) opens a segment.
func ReadSegmentFile(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	data, err := DecodeSegment(raw)
	if err != nil {
		return nil, fmt.Errorf("segment %s: %w; move the file aside and retry", path, err)
	}
	return data, nil
}

func DecodeSegment(raw []byte) ([]byte, error) {
	switch {
	case bytes.HasPrefix(raw, ZstdMagic):
		dec, err := zstdDecoder()
		if err != nil {
			return nil, err
		}
		return dec.DecodeAll(raw, nil)
	case bytes.HasPrefix(raw, gzipMagic):
		r, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, err
		}
		defer r.Close()
		return io.ReadAll(r)
	}
	return raw, nil
}
