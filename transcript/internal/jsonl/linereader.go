package jsonl

import (
	"bufio"
	"crypto/sha256"
	"encoding"
	"errors"
	"fmt"
	"hash"
	"io"
)

// MaxRecord is the largest JSONL record imported; longer lines (15 MB tool
// outputs exist) are skipped with a loss note, in constant memory.
const MaxRecord = 1 << 20

// readBufSize is the bufio buffer; most records fit, so they are parsed in
// place without copying.
const readBufSize = 256 << 10

// LineReader yields complete lines of a JSONL file while hashing every byte
// it consumes, so the offset and prefix hash always describe the same bytes.
// A final line without '\n' is never consumed.
type LineReader struct {
	br  *bufio.Reader
	h   hash.Hash
	acc []byte // holds one line longer than the bufio buffer, up to MaxRecord
	off int64  // bytes consumed (always just after a '\n', or 0)
}

func NewLineReader(r io.Reader, h hash.Hash, off int64) *LineReader {
	return &LineReader{br: bufio.NewReaderSize(r, readBufSize), h: h, off: off}
}

// next returns the next complete line without its newline and the offset it
// starts at. oversize is true (and line nil) for a line over MaxRecord that
// was skipped. io.EOF means no complete line is left. The returned slice is
// valid until the next call.
func (lr *LineReader) Next() (line []byte, start int64, oversize bool, err error) {
	start = lr.off
	frag, err := lr.br.ReadSlice('\n')
	switch {
	case err == nil:
		lr.consume(frag)
		return frag[:len(frag)-1], start, false, nil
	case errors.Is(err, bufio.ErrBufferFull):
		return lr.long(frag, start)
	case errors.Is(err, io.EOF):
		return nil, start, false, io.EOF
	}
	return nil, start, false, fmt.Errorf("read transcript at byte %d: %w", start, err)
}

func (lr *LineReader) consume(b []byte) {
	lr.h.Write(b)
	lr.off += int64(len(b))
}

// long accumulates a line longer than the bufio buffer.
func (lr *LineReader) long(frag []byte, start int64) ([]byte, int64, bool, error) {
	lr.acc = append(lr.acc[:0], frag...)
	for {
		frag, err := lr.br.ReadSlice('\n')
		if len(lr.acc)+len(frag) > MaxRecord+1 {
			return lr.discard(frag, err, start)
		}
		lr.acc = append(lr.acc, frag...)
		switch {
		case err == nil:
			lr.consume(lr.acc)
			return lr.acc[:len(lr.acc)-1], start, false, nil
		case errors.Is(err, io.EOF):
			return nil, start, false, io.EOF
		case !errors.Is(err, bufio.ErrBufferFull):
			return nil, start, false, fmt.Errorf("read transcript at byte %d: %w", start, err)
		}
	}
}

// discard skips the rest of an oversize line, hashing it as it goes. If the
// line turns out to be incomplete, the hash is restored so that it still
// covers exactly the consumed bytes.
func (lr *LineReader) discard(frag []byte, err error, start int64) ([]byte, int64, bool, error) {
	saved, mErr := lr.h.(encoding.BinaryMarshaler).MarshalBinary()
	if mErr != nil {
		return nil, start, false, fmt.Errorf("snapshot transcript hash: %w", mErr)
	}
	n := int64(len(lr.acc) + len(frag))
	lr.h.Write(lr.acc)
	lr.h.Write(frag)
	lr.acc = lr.acc[:0]
	for errors.Is(err, bufio.ErrBufferFull) {
		frag, err = lr.br.ReadSlice('\n')
		lr.h.Write(frag)
		n += int64(len(frag))
	}
	if err == nil {
		lr.off += n
		return nil, start, true, nil
	}
	if uErr := lr.h.(encoding.BinaryUnmarshaler).UnmarshalBinary(saved); uErr != nil {
		return nil, start, false, fmt.Errorf("restore transcript hash: %w", uErr)
	}
	if errors.Is(err, io.EOF) {
		return nil, start, false, io.EOF
	}
	return nil, start, false, fmt.Errorf("read transcript at byte %d: %w", start, err)
}

func NewPrefixHash() hash.Hash { return sha256.New() }

// Offset is the number of bytes consumed: always just after a '\n', or the
// starting offset.
func (lr *LineReader) Offset() int64 { return lr.off }

// Sum is the hash of every byte before Offset.
func (lr *LineReader) Sum() []byte { return lr.h.Sum(nil) }
