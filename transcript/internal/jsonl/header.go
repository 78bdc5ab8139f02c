package jsonl

import (
	"bufio"
	"errors"
)

// ReadBoundedLine reads one line into buf, keeping at most max bytes.
func ReadBoundedLine(br *bufio.Reader, max int, buf []byte) ([]byte, bool, error) {
	tooLong := false
	for {
		frag, err := br.ReadSlice('\n')
		if len(buf)+len(frag) > max+1 {
			tooLong = true
		} else {
			buf = append(buf, frag...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return TrimLine(buf), tooLong, err
	}
}

// TrimLine removes the line ending (\n or \r\n) from b.
func TrimLine(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
