package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Cursor is the import position inside one transcript file: the byte offset
// just after the last complete line imported, and the SHA-256 (lowercase hex)
// of every byte before it. The hash lets a later read notice that the file was
// rewritten and start over instead of resuming mid-record.
type Cursor struct {
	Path         string `json:"path"`
	Offset       int64  `json:"offset"`
	PrefixSHA256 string `json:"prefix_sha256,omitempty"`
}

// IsZero reports whether c is the zero cursor (read from the start).
func (c Cursor) IsZero() bool { return c == Cursor{} }

// String returns the cursor as JSON, or "" for the zero cursor.
func (c Cursor) String() string {
	if c.IsZero() {
		return ""
	}
	b, err := json.Marshal(c)
	if err != nil { // cannot happen for this struct
		return ""
	}
	return string(b)
}

// ParseCursor parses the output of [Cursor.String]; "" gives the zero cursor.
func ParseCursor(s string) (Cursor, error) {
	var c Cursor
	if s == "" {
		return c, nil
	}
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		return Cursor{}, fmt.Errorf("parse transcript cursor: %w", err)
	}
	if c.Offset < 0 {
		return Cursor{}, errors.New("parse transcript cursor: negative offset")
	}
	if c.Offset > 0 && c.Path == "" {
		return Cursor{}, errors.New("parse transcript cursor: offset without path")
	}
	return c, nil
}
