package sessionindex

import (
	"encoding/json"
	"time"
)

// Record statuses. "active" only means no terminal state has been recorded;
// it is not proof that the session is still running.
const (
	StatusActive      = "active"
	StatusEnded       = "ended"
	StatusInterrupted = "interrupted"
)

// PendingID is the native session id written while the real one is unknown;
// [Store.Bind] replaces it later.
const PendingID = "pending"

// unknownID is what track-agent-sessions writes for legacy rows whose native
// id was never known. Like PendingID it may be replaced by [Store.Bind].
const unknownID = "unknown"

// DefaultHistoryLimit bounds the index when the file does not say otherwise.
const DefaultHistoryLimit = 20

// timeLayout is the on-disk timestamp form: RFC 3339, UTC, second precision.
const timeLayout = "2006-01-02T15:04:05Z"

// Record is one session lifecycle entry of the index.
type Record struct {
	ID              string
	Runtime         string
	NativeSessionID string
	Started         time.Time
	Ended           *time.Time // nil while the session has no terminal state
	Status          string
	Focus           string
	// Extra holds keys written by other tools, preserved verbatim.
	Extra map[string]json.RawMessage

	// src remembers the bytes each known key had on disk so that a rewrite
	// of an unchanged value keeps them byte for byte (another writer may
	// format timestamps or escape strings differently).
	src *source
}

// Index is the whole session-history.json document.
type Index struct {
	Sessions      []Record
	LatestSession string
	// HistoryLimit is the file's bound; values below 1 are kept as written
	// but [Index.Limit] applies DefaultHistoryLimit for them.
	HistoryLimit int
	// IDHighWater is the highest ordinal (1 = no suffix, 2 = "-2", ...)
	// issued per id prefix YYYYMMDD-HHMM-<runtime> whose record was
	// evicted, so that the id is never issued again (docs/session-index.md).
	IDHighWater map[string]int
	// Extra holds top-level keys written by other tools, preserved verbatim.
	Extra map[string]json.RawMessage

	src *source
}

// source is the on-disk form of the known keys of one JSON object.
type source struct {
	raw   map[string]json.RawMessage // original bytes (compacted); absent key = not on disk
	canon map[string][]byte          // our encoding of the value parsed from those bytes
}

// Limit returns the effective history bound.
func (ix *Index) Limit() int {
	if ix.HistoryLimit < 1 {
		return DefaultHistoryLimit
	}
	return ix.HistoryLimit
}

// Find returns the position of the record with the given id, or -1.
func (ix *Index) Find(id string) int {
	for i := range ix.Sessions {
		if ix.Sessions[i].ID == id {
			return i
		}
	}
	return -1
}

// Terminal reports whether the record has reached a final status.
func (r Record) Terminal() bool {
	return r.Status == StatusEnded || r.Status == StatusInterrupted
}

// hasRealNativeID reports whether the native id identifies a session, as
// opposed to the placeholders "pending" and "unknown" or nothing at all.
func (r Record) hasRealNativeID() bool {
	return isRealNativeID(r.NativeSessionID)
}

// Identified reports whether the record names a real native session (not
// "pending" or "unknown"), so that whether it still runs can be checked.
func (r Record) Identified() bool { return r.hasRealNativeID() }

func isRealNativeID(id string) bool {
	return id != "" && id != PendingID && id != unknownID
}

// MarshalJSON encodes the record in its on-disk key order.
func (r Record) MarshalJSON() ([]byte, error) {
	return encodeRecord(r)
}

// MarshalJSON encodes the index in its on-disk key order (compact).
func (ix Index) MarshalJSON() ([]byte, error) {
	return encodeIndex(ix)
}
