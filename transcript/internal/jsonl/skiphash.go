package jsonl

import (
	"encoding"
	"encoding/binary"
	"errors"
	"hash"
)

// SkipHash returns h that leaves out the first n bytes written to it (after
// every Reset too), for files whose first line the writer rewrites in place
// at the same length: a prefix hash over the rest still proves that the
// bytes before an offset are unchanged. It keeps h's binary snapshots.
func SkipHash(h hash.Hash, n int64) hash.Hash {
	return &skipHash{Hash: h, skip: n, orig: n}
}

type skipHash struct {
	hash.Hash
	skip, orig int64
}

func (s *skipHash) Write(b []byte) (int, error) {
	n := len(b)
	if s.skip > 0 {
		k := min(int64(len(b)), s.skip)
		s.skip -= k
		b = b[k:]
	}
	_, err := s.Hash.Write(b)
	return n, err
}

func (s *skipHash) Reset() {
	s.Hash.Reset()
	s.skip = s.orig
}

func (s *skipHash) MarshalBinary() ([]byte, error) {
	m, ok := s.Hash.(encoding.BinaryMarshaler)
	if !ok {
		return nil, errors.New("hash cannot be snapshotted")
	}
	b, err := m.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return binary.BigEndian.AppendUint64(b, uint64(s.skip)), nil
}

func (s *skipHash) UnmarshalBinary(b []byte) error {
	u, ok := s.Hash.(encoding.BinaryUnmarshaler)
	if !ok || len(b) < 8 {
		return errors.New("hash snapshot cannot be restored")
	}
	s.skip = int64(binary.BigEndian.Uint64(b[len(b)-8:]))
	return u.UnmarshalBinary(b[:len(b)-8])
}
