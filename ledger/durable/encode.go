package durable

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// EncodeSegment renders the records as JSONL, byte for byte what
// encoding/json writes for a Record, with the event id cleared when
// IDDerived (segment names hash these bytes, and
// segments written by earlier versions must keep reading back the same).
// It writes the fields directly instead of through reflection, which was a
// tenth of an import's CPU; TestEncodeSegment_MatchesEncodingJSON holds it
// to encoding/json's output.
func EncodeSegment(recs []Record) ([]byte, error) {
	size := 0
	for i := range recs {
		size += len(recs[i].Content) + 512
	}
	buf := make([]byte, 0, size)
	for i := range recs {
		var err error
		if buf, err = appendRecord(buf, &recs[i]); err != nil {
			return nil, fmt.Errorf("encode segment record: %w", err)
		}
		buf = append(buf, '\n')
	}
	return buf, nil
}

// appendRecord appends r as encoding/json would marshal it: fields in
// declaration order, omitempty ones left out when empty, times through
// their MarshalJSON and metadata (an arbitrary map) through encoding/json.
func appendRecord(b []byte, r *Record) ([]byte, error) {
	b = strconv.AppendInt(append(b, `{"v":`...), int64(r.V), 10)
	b = appendString(append(b, `,"workstream_id":`...), r.WorkstreamID)
	if r.RunID != "" {
		b = appendString(append(b, `,"run_id":`...), r.RunID)
	}
	b = strconv.AppendInt(append(b, `,"sequence":`...), r.Sequence, 10)
	if r.Order != 0 {
		b = strconv.AppendInt(append(b, `,"order":`...), r.Order, 10)
	}
	if r.EventID != "" && !r.IDDerived {
		b = appendString(append(b, `,"event_id":`...), r.EventID)
	}
	b = appendString(append(b, `,"harness":`...), r.Harness)
	if r.NativeSessionID != "" {
		b = appendString(append(b, `,"native_session_id":`...), r.NativeSessionID)
	}
	if r.SourceRecordID != "" {
		b = appendString(append(b, `,"source_record_id":`...), r.SourceRecordID)
	}
	b = strconv.AppendInt(append(b, `,"block_index":`...), int64(r.BlockIndex), 10)
	b = appendString(append(b, `,"kind":`...), string(r.Kind))
	if r.Role != "" {
		b = appendString(append(b, `,"role":`...), r.Role)
	}
	var err error
	if r.OccurredAt != nil {
		if b, err = appendTime(append(b, `,"occurred_at":`...), r.OccurredAt.MarshalJSON); err != nil {
			return nil, err
		}
	}
	if len(r.Metadata) > 0 {
		m, err := json.Marshal(r.Metadata)
		if err != nil {
			return nil, err
		}
		b = append(append(b, `,"metadata":`...), m...)
	}
	b = appendString(append(b, `,"content":`...), r.Content)
	if b, err = appendTime(append(b, `,"created_at":`...), r.CreatedAt.MarshalJSON); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// appendTime appends a time's JSON form.
func appendTime(b []byte, marshal func() ([]byte, error)) ([]byte, error) {
	t, err := marshal()
	if err != nil {
		return nil, err
	}
	return append(b, t...), nil
}

const hexDigits = "0123456789abcdef"

// SWAR constants: one byte value repeated in every byte of a word.
const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// hasZero is nonzero exactly when a byte of x is 0.
func hasZero(x uint64) uint64 { return (x - lsb) & ^x & msb }

// word8 is s[i:i+8] as a little-endian word (the compiler merges the loads).
func word8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// skipPlain returns the first i' >= i such that s[i':i'+8] is not 8 bytes
// of ASCII that encoding/json copies as they are (with HTML escaping): no
// control byte, '"', '\\', '<', '>' or '&'. (w - 0x20...) & ^w & msb is
// nonzero exactly when a byte is below 0x20, w being ASCII.
func skipPlain(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		w := word8(s, i)
		if w&msb|(w-0x20*lsb)&^w&msb|hasZero(w^('"'*lsb))|hasZero(w^('\\'*lsb))|
			hasZero(w^('<'*lsb))|hasZero(w^('>'*lsb))|hasZero(w^('&'*lsb)) != 0 {
			break
		}
	}
	return i
}

// appendString appends s as encoding/json's string encoder does with HTML
// escaping on (json.Marshal's default): quotes, backslash and control
// bytes escaped, '<', '>', '&' and U+2028/U+2029 as \u escapes, invalid
// UTF-8 as \ufffd. A leading run of plain ASCII (most of a short string,
// or of prose) is skipped 8 bytes at a time; past the first special byte a
// byte table is faster, since transcript text with code in it has one about
// every 8 bytes (it would fail most word tests).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := skipPlain(s, 0); i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if plainSet[c] {
				i++
				continue
			}
			b = appendEscape(append(b, s[start:i]...), c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
			start = i + size
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			start = i + size
		}
		i += size
	}
	return append(append(b, s[start:]...), '"')
}

// plainSet[c] reports whether encoding/json copies the ASCII byte c as is.
var plainSet = func() (set [utf8.RuneSelf]bool) {
	for c := range set {
		set[c] = plainByte(byte(c))
	}
	return set
}()

// plainByte reports whether encoding/json copies the ASCII byte c as is.
func plainByte(c byte) bool {
	return c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
}

// appendEscape appends the escape of an ASCII byte that is not plain.
func appendEscape(b []byte, c byte) []byte {
	switch c {
	case '\\', '"':
		return append(b, '\\', c)
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}
