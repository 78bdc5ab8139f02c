package sessionindex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// encodeFile renders the index as the file content: known keys first in
// their fixed order, unknown keys sorted, 2-space indent, trailing newline.
func encodeFile(ix Index) ([]byte, error) {
	c, err := encodeIndex(ix)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, c, "", "  "); err != nil {
		return nil, fmt.Errorf("indent session index: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func encodeIndex(ix Index) ([]byte, error) {
	var w objWriter
	for _, k := range indexKeys {
		if err := w.known(ix.src, k, func() ([]byte, error) { return encodeIndexKey(ix, k) }); err != nil {
			return nil, err
		}
	}
	w.extra(ix.Extra)
	return w.close(), nil
}

func encodeRecord(r Record) ([]byte, error) {
	var w objWriter
	for _, k := range recordKeys {
		if err := w.known(r.src, k, func() ([]byte, error) { return encodeRecordKey(r, k) }); err != nil {
			return nil, err
		}
	}
	w.extra(r.Extra)
	return w.close(), nil
}

func encodeIndexKey(ix Index, key string) ([]byte, error) {
	switch key {
	case "sessions":
		return encodeSessions(ix.Sessions)
	case "latest_session":
		if ix.LatestSession == "" {
			return []byte("null"), nil
		}
		return jsonString(ix.LatestSession), nil
	case "history_limit":
		return []byte(strconv.Itoa(ix.HistoryLimit)), nil
	case "id_high_water":
		if len(ix.IDHighWater) == 0 {
			return nil, nil // written only once an id was evicted
		}
		return json.Marshal(ix.IDHighWater) // keys sorted
	}
	return nil, fmt.Errorf("encode index: unknown key %q", key)
}

func encodeSessions(rs []Record) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, r := range rs {
		if i > 0 {
			b.WriteByte(',')
		}
		c, err := encodeRecord(r)
		if err != nil {
			return nil, fmt.Errorf("encode session %q: %w", r.ID, err)
		}
		b.Write(c)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

func encodeRecordKey(r Record, key string) ([]byte, error) {
	switch key {
	case "id":
		return jsonString(r.ID), nil
	case "runtime":
		return jsonString(r.Runtime), nil
	case "native_session_id":
		return jsonString(r.NativeSessionID), nil
	case "started":
		return encodeTime(&r.Started), nil
	case "ended":
		return encodeTime(r.Ended), nil
	case "status":
		return jsonString(r.Status), nil
	case "focus":
		return jsonString(r.Focus), nil
	}
	return nil, fmt.Errorf("encode record: unknown key %q", key)
}

func encodeTime(t *time.Time) []byte {
	if t == nil || t.IsZero() {
		return []byte("null")
	}
	return jsonString(t.UTC().Format(timeLayout))
}

// jsonString encodes s without HTML escaping, as other writers of the file
// do. Plain printable ASCII, the common case, skips the encoder.
func jsonString(s string) []byte {
	if plainASCII(s) {
		return append(append(append(make([]byte, 0, len(s)+2), '"'), s...), '"')
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimRight(b.Bytes(), "\n")
}

func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// objWriter builds one compact JSON object.
type objWriter struct {
	b bytes.Buffer
	n int
}

func (w *objWriter) field(key string, val []byte) {
	if w.n == 0 {
		w.b.WriteByte('{')
	} else {
		w.b.WriteByte(',')
	}
	w.n++
	w.b.Write(jsonString(key))
	w.b.WriteByte(':')
	w.b.Write(val)
}

// known writes one known key. A value that did not change since it was
// read is written with its original bytes; a key that was absent on disk
// and still holds the value it was parsed as stays absent.
func (w *objWriter) known(src *source, key string, enc func() ([]byte, error)) error {
	cur, err := enc()
	if err != nil {
		return err
	}
	if src != nil && key != "sessions" && bytes.Equal(src.canon[key], cur) {
		raw, ok := src.raw[key]
		if !ok {
			return nil
		}
		cur = raw
	}
	if cur == nil {
		return nil // the key is not written at all
	}
	w.field(key, cur)
	return nil
}

func (w *objWriter) extra(m map[string]json.RawMessage) {
	for _, k := range sortedKeys(m) {
		w.field(k, m[k])
	}
}

func (w *objWriter) close() []byte {
	if w.n == 0 {
		w.b.WriteByte('{')
	}
	w.b.WriteByte('}')
	return w.b.Bytes()
}
