package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
)

// OpenCodeCursor is the import position inside one OpenCode session: the
// part last imported, as its (time_updated, id) pair. Parts are read
// strictly after it in (time_updated, id) order, so a part OpenCode rewrites
// later (a tool call that completes, text that streams on) gets a newer
// time_updated and is read again; part ids are unique and grow with
// creation time, which makes the order total.
type OpenCodeCursor struct {
	Updated int64  `json:"updated"` // part.time_updated, Unix milliseconds
	ID      string `json:"id"`      // part.id, "prt_…"
	// N counts the part keys passed so far (a rewritten part counts again),
	// for [Source.Progress]; it plays no part in where a read resumes.
	N int64 `json:"n,omitempty"`
}

// IsZero reports whether c is the zero cursor (read from the start).
func (c OpenCodeCursor) IsZero() bool { return c == OpenCodeCursor{} }

// String returns the cursor as JSON, or "" for the zero cursor.
func (c OpenCodeCursor) String() string {
	if c.IsZero() {
		return ""
	}
	b, err := json.Marshal(c)
	if err != nil { // cannot happen for this struct
		return ""
	}
	return string(b)
}

// ParseOpenCodeCursor parses the output of [OpenCodeCursor.String]; ""
// gives the zero cursor.
func ParseOpenCodeCursor(s string) (OpenCodeCursor, error) {
	var c OpenCodeCursor
	if s == "" {
		return c, nil
	}
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		return OpenCodeCursor{}, fmt.Errorf("parse opencode cursor: %w", err)
	}
	if c.Updated < 0 {
		return OpenCodeCursor{}, errors.New("parse opencode cursor: negative time")
	}
	if c.ID == "" && c.Updated != 0 {
		return OpenCodeCursor{}, errors.New("parse opencode cursor: time without part id")
	}
	return c, nil
}

// encode returns c as the opaque [Cursor] the launcher stores.
func (c OpenCodeCursor) encode() Cursor { return Cursor(c.String()) }

// openCodeCursorFrom is the usable cursor in from: a file cursor or a
// corrupt one reads from the start.
func openCodeCursorFrom(from Cursor) OpenCodeCursor {
	c, err := ParseOpenCodeCursor(string(from))
	if err != nil {
		return OpenCodeCursor{}
	}
	return c
}

// after reports whether the row (updated, id) comes after c.
func (c OpenCodeCursor) after(updated int64, id string) bool {
	return updated > c.Updated || (updated == c.Updated && id > c.ID)
}
