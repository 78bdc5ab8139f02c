package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Cursor is an import position inside one session, serialised by the source
// that produced it and interpreted only by that source: the ledger stores it
// as an opaque string with the session link, and the launcher hands it back
// unchanged. "" reads from the start. A cursor a source cannot use (corrupt,
// from another file or format) makes it read from the start; the ledger's
// deterministic event ids make that replay add nothing.
type Cursor string

// IsZero reports whether c is the zero cursor (read from the start).
func (c Cursor) IsZero() bool { return c == "" }

// fileCursor is the cursor of the JSONL sources: the byte offset just after
// the last complete line imported, and the SHA-256 (lowercase hex) of every
// byte before it, which lets a later read notice that the file was rewritten
// and start over instead of resuming mid-record. Its JSON form
// {"path","offset","prefix_sha256"} is what ledgers have stored since the
// first release: keep it.
type fileCursor struct {
	Path         string `json:"path"`
	Offset       int64  `json:"offset"`
	PrefixSHA256 string `json:"prefix_sha256,omitempty"`
}

// encode returns the cursor as JSON, or "" for the zero cursor.
func (c fileCursor) encode() Cursor {
	if c == (fileCursor{}) {
		return ""
	}
	b, err := json.Marshal(c)
	if err != nil { // cannot happen for this struct
		return ""
	}
	return Cursor(b)
}

// parseFileCursor parses the output of [fileCursor.encode]; "" gives the
// zero cursor.
func parseFileCursor(s Cursor) (fileCursor, error) {
	var c fileCursor
	if s == "" {
		return c, nil
	}
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		return fileCursor{}, fmt.Errorf("parse transcript cursor: %w", err)
	}
	if c.Offset < 0 {
		return fileCursor{}, errors.New("parse transcript cursor: negative offset")
	}
	if c.Offset > 0 && c.Path == "" {
		return fileCursor{}, errors.New("parse transcript cursor: offset without path")
	}
	return c, nil
}

// fileCursorFor is the usable cursor for the file at path: from, when it
// parses and names that file; else the zero cursor (read from the start).
func fileCursorFor(from Cursor, path string) fileCursor {
	c, err := parseFileCursor(from)
	if err != nil || c.Path != path {
		return fileCursor{}
	}
	return c
}
