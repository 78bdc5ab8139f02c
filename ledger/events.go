package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/ai-memory/ai-memory/redact"
)

// Kind is the type of an event.
type Kind string

// Event kinds. Only message, tool_call, tool_result and compaction make a
// workstream "established".
const (
	KindMessage    Kind = "message"
	KindToolCall   Kind = "tool_call"
	KindToolResult Kind = "tool_result"
	KindCompaction Kind = "compaction"
	KindCheckpoint Kind = "checkpoint"
	KindAnnotation Kind = "annotation"
)

// Valid reports whether k is one of the known kinds.
func (k Kind) Valid() bool {
	switch k {
	case KindMessage, KindToolCall, KindToolResult, KindCompaction, KindCheckpoint, KindAnnotation:
		return true
	}
	return false
}

// EventInput is one normalised record block to append.
type EventInput struct {
	Harness, NativeSessionID, SourceRecordID string
	BlockIndex                               int
	Kind                                     Kind
	Role                                     string
	OccurredAt                               time.Time
	Metadata                                 map[string]any
	Content                                  string
	// ByTime says OccurredAt, not arrival, places the event among its
	// session's events: one older than events of its session already stored
	// is shown before them (see Event.Order). Not stored; it only decides
	// Order when the event is appended.
	ByTime bool `json:"-"`
}

// Event is a stored event. Its EventInput holds the redacted values; Content
// is capped at MaxContentBytes (the segment keeps the full redacted text).
type Event struct {
	EventInput
	WorkstreamID string
	Sequence     int64
	// Order places the event in conversation order: the sequence of the
	// event it is shown before when it arrived late (EventInput.ByTime),
	// else its own sequence. Sort with SortConversation.
	Order       int64 `json:"-"`
	EventID     string
	SegmentPath string // relative to the data home
	CreatedAt   time.Time
}

// MaxContentBytes caps the content stored in the database. Longer content is
// cut on a rune boundary and ends with TruncationMarker; the whole content
// is redacted before the cut so a secret straddling the cut is still caught.
const MaxContentBytes = 64 << 10

// TruncationMarker ends content cut to MaxContentBytes.
const TruncationMarker = "\n[truncated by ai-memory]"

// EventID returns the deterministic id of e: hex SHA-256 over the NUL-joined
// harness, native session id, source record id, block index, kind and
// content, with record id and content redacted first (exactly as stored), so
// a replay of the same source block always maps to the same id.
func EventID(e EventInput) string {
	return DeriveEventID(redact.String(e.SourceRecordID), e, redact.String(e.Content))
}

func DeriveEventID(recordID string, e EventInput, content string) string {
	h := sha256.New()
	for i, part := range []string{e.Harness, e.NativeSessionID, recordID,
		strconv.Itoa(e.BlockIndex), string(e.Kind), content} {
		if i > 0 {
			h.Write([]byte{0})
		}
		h.Write([]byte(part))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// sanitize redacts every stored string of e (content, source record id,
// metadata keys and values) and normalises times to UTC microseconds.
func Sanitize(e EventInput) (EventInput, error) {
	e.Content = redact.String(e.Content)
	e.SourceRecordID = redact.String(e.SourceRecordID)
	if !e.OccurredAt.IsZero() {
		e.OccurredAt = time.UnixMicro(e.OccurredAt.UnixMicro()).UTC()
	}
	if len(e.Metadata) == 0 {
		e.Metadata = nil
		return e, nil
	}
	m, err := redactMetadata(e.Metadata)
	e.Metadata = m
	return e, err
}

// redactMetadata normalises metadata through JSON (so any value type is
// handled) and redacts every string in it, keys included.
func redactMetadata(m map[string]any) (map[string]any, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode metadata: %w", err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("decode metadata: %w", err)
	}
	return redactValue(v).(map[string]any), nil
}

func redactValue(v any) any {
	switch t := v.(type) {
	case string:
		return redact.String(t)
	case []any:
		for i := range t {
			t[i] = redactValue(t[i])
		}
		return t
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[redact.String(k)] = redactValue(x)
		}
		return out
	}
	return v
}

// capContent cuts s to MaxContentBytes (marker included) on a rune boundary.
func CapContent(s string) string {
	if len(s) <= MaxContentBytes {
		return s
	}
	cut := MaxContentBytes - len(TruncationMarker)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + TruncationMarker
}
