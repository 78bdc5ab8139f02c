package sessionindex

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Known keys in the order they are written; unknown keys follow, sorted.
var (
	indexKeys  = []string{"sessions", "latest_session", "history_limit", "id_high_water"}
	recordKeys = []string{"id", "runtime", "native_session_id", "started", "ended", "status", "focus"}
)

// errShape is wrapped by parse errors that are about structure, not syntax.
var errShape = errors.New("unexpected shape")

// parseIndex decodes a session-history.json document. Whitespace-only input
// is an empty index. Unknown keys are kept in Extra.
func parseIndex(data []byte) (Index, error) {
	ix := Index{HistoryLimit: DefaultHistoryLimit}
	if len(bytes.TrimSpace(data)) == 0 {
		return ix, nil
	}
	obj, err := decodeObject(data)
	if err != nil {
		return Index{}, fmt.Errorf("top level: %w", err)
	}
	if ix.Sessions, err = parseSessions(obj["sessions"]); err != nil {
		return Index{}, err
	}
	if ix.LatestSession, err = parseString(obj["latest_session"]); err != nil {
		return Index{}, fmt.Errorf("latest_session: %w", err)
	}
	if raw, ok := obj["history_limit"]; ok && !isNull(raw) {
		if err := json.Unmarshal(raw, &ix.HistoryLimit); err != nil {
			return Index{}, fmt.Errorf("history_limit: %w", errShape)
		}
	}
	if raw, ok := obj["id_high_water"]; ok && !isNull(raw) {
		if err := json.Unmarshal(raw, &ix.IDHighWater); err != nil {
			return Index{}, fmt.Errorf("id_high_water: %w", errShape)
		}
	}
	ix.src, ix.Extra = splitKnown(obj, indexKeys, func(k string) ([]byte, error) {
		if k == "sessions" {
			return nil, nil // always re-encoded from the records
		}
		return encodeIndexKey(ix, k)
	})
	return ix, nil
}

func parseSessions(raw json.RawMessage) ([]Record, error) {
	if raw == nil || isNull(raw) {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("sessions: %w", errShape)
	}
	out := make([]Record, 0, len(items))
	for i, item := range items {
		r, err := parseRecord(item)
		if err != nil {
			return nil, fmt.Errorf("sessions[%d]: %w", i, err)
		}
		out = append(out, r)
	}
	return out, nil
}

func parseRecord(data []byte) (Record, error) {
	obj, err := decodeObject(data)
	if err != nil {
		return Record{}, err
	}
	var r Record
	for key, dst := range map[string]*string{
		"id": &r.ID, "runtime": &r.Runtime, "native_session_id": &r.NativeSessionID,
		"status": &r.Status, "focus": &r.Focus,
	} {
		if *dst, err = parseString(obj[key]); err != nil {
			return Record{}, fmt.Errorf("%s: %w", key, err)
		}
	}
	if r.Started, err = parseTimeField(obj["started"]); err != nil {
		return Record{}, fmt.Errorf("started: %w", err)
	}
	if r.Ended, err = parseEnded(obj["ended"]); err != nil {
		return Record{}, fmt.Errorf("ended: %w", err)
	}
	if r.Started.IsZero() {
		r.Started = timeFromID(r.ID) // best effort ordering for foreign rows
	}
	r.src, r.Extra = splitKnown(obj, recordKeys, func(k string) ([]byte, error) { return encodeRecordKey(r, k) })
	return r, nil
}

func decodeObject(data []byte) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, fmt.Errorf("null instead of an object: %w", errShape)
	}
	return obj, nil
}

// splitKnown separates the known keys (remembered with their canonical
// re-encoding, see [source]) from the unknown ones (returned as Extra).
func splitKnown(obj map[string]json.RawMessage, known []string, enc func(string) ([]byte, error)) (*source, map[string]json.RawMessage) {
	src := &source{raw: map[string]json.RawMessage{}, canon: map[string][]byte{}}
	for _, k := range known {
		if raw, ok := obj[k]; ok {
			src.raw[k] = compact(raw)
			delete(obj, k)
		}
		src.canon[k], _ = enc(k) // encoders of parsed values cannot fail
	}
	for k, v := range obj {
		obj[k] = compact(v)
	}
	if len(obj) == 0 {
		obj = nil
	}
	return src, obj
}

func compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

func parseString(raw json.RawMessage) (string, error) {
	if raw == nil || isNull(raw) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("not a string: %w", errShape)
	}
	return s, nil
}

// parseTimeField accepts RFC 3339 with any offset and fraction, and naive
// ISO 8601 (taken as UTC). An unparseable string becomes the zero time; its
// original bytes are still written back unchanged.
func parseTimeField(raw json.RawMessage) (time.Time, error) {
	s, err := parseString(raw)
	if err != nil || s == "" {
		return time.Time{}, err
	}
	t, _ := parseTime(s)
	return t, nil
}

func parseEnded(raw json.RawMessage) (*time.Time, error) {
	s, err := parseString(raw)
	if err != nil || s == "" {
		return nil, err
	}
	t, _ := parseTime(s) // unparseable: ended at an unknown time
	return &t, nil
}

func parseTime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("parse time %q: not RFC 3339", s)
}

// timeFromID recovers the start minute from an id of the form
// YYYYMMDD-HHMM-<runtime>, or returns the zero time.
func timeFromID(id string) time.Time {
	if len(id) < len("20060102-1504") {
		return time.Time{}
	}
	t, err := time.Parse("20060102-1504", id[:len("20060102-1504")])
	if err != nil {
		return time.Time{}
	}
	return t
}

// sortedKeys returns the keys of m in byte order.
func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
