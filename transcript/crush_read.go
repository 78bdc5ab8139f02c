package transcript

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// CrushCursor is the import position inside one Crush session: the rowid
// of the last message passed. Crush's ids are random UUIDs and its
// timestamps have one-second resolution, so neither orders messages;
// SQLite's rowid (the table is not WITHOUT ROWID and Crush never vacuums)
// grows with every insert, which is the order Crush wrote them in. A
// message is only passed once it is final (see crushFinal), so later
// rewrites of a passed message cannot happen in Crush's own writing.
type CrushCursor struct {
	Row int64 `json:"row"`
	// N counts the messages passed, for [Source.Progress]; it plays no
	// part in where a read resumes.
	N int64 `json:"n,omitempty"`
}

// String returns the cursor as JSON, or "" for the zero cursor.
func (c CrushCursor) String() string {
	if c == (CrushCursor{}) {
		return ""
	}
	b, _ := json.Marshal(c) // cannot fail for this struct
	return string(b)
}

// ParseCrushCursor parses the output of [CrushCursor.String]; "" gives the
// zero cursor.
func ParseCrushCursor(s string) (CrushCursor, error) {
	var c CrushCursor
	if s == "" {
		return c, nil
	}
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		return CrushCursor{}, fmt.Errorf("parse crush cursor: %w", err)
	}
	if c.Row < 0 || c.N < 0 {
		return CrushCursor{}, errors.New("parse crush cursor: negative position")
	}
	return c, nil
}

func (c CrushCursor) encode() Cursor { return Cursor(c.String()) }

// crushCursorFrom is the usable cursor in from: another source's cursor or
// a corrupt one reads from the start.
func crushCursorFrom(from Cursor) CrushCursor {
	c, err := ParseCrushCursor(string(from))
	if err != nil {
		return CrushCursor{}
	}
	return c
}

// CrushBatch is what [crushSource.ReadFrom] hands to emit.
type CrushBatch struct {
	Events []Event
	Losses []Loss
	Cursor CrushCursor
}

// crushPage is how many messages one short read transaction fetches, so a
// long import never pins a WAL snapshot that would stop Crush's
// checkpoints.
var crushPage = 200

// crushStaleAfter is how long an unfinished assistant message (still
// streaming) holds the import back; an older one is final: Crush was
// killed mid-turn and will never finish it.
const crushStaleAfter = 10 * time.Minute

// crushNow is the clock of the staleness rule (tests replace it).
var crushNow = time.Now

// crushRow is one messages row.
type crushRow struct {
	rowid             int64
	id, role          string
	parts             []byte
	created, updated  int64
	finished, summary bool
}

// ReadFrom imports the messages of s after from, in rowid order, handing
// batches to emit. It stops before the first message Crush is still
// writing, so the cursor never passes a message whose final content has
// not been seen.
func (crushSource) ReadFrom(ctx context.Context, s Session, from CrushCursor, opt ReadOptions,
	emit func(CrushBatch) error) error {
	db, err := openROSQLite(ctx, s.Path, crushWhat)
	if err != nil {
		return err
	}
	defer db.Close()
	opt = opt.withDefaults()
	cur, sent := from, from
	var out sink
	flush := func(final bool) error {
		if len(out.events)+len(out.losses) == 0 && (!final || cur == sent) {
			return nil
		}
		b := CrushBatch{Events: out.events, Losses: out.losses, Cursor: cur}
		out, sent = sink{}, cur
		return emit(b)
	}
	now := crushNow().Unix()
	for {
		rows, err := crushFetch(ctx, db, s.ID, cur.Row)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if !crushFinal(r, now) {
				return flush(true)
			}
			parseCrushMessage(r, &out)
			cur = CrushCursor{Row: r.rowid, N: cur.N + 1}
			if len(out.events)+len(out.losses) >= opt.BatchEvents || out.bytes >= opt.BatchBytes {
				if err := flush(false); err != nil {
					return err
				}
			}
		}
		if len(rows) < crushPage {
			return flush(true)
		}
	}
}

// crushFetch reads up to crushPage messages of session after rowid.
func crushFetch(ctx context.Context, db *roSQLite, session string, after int64) ([]crushRow, error) {
	var out []crushRow
	err := db.do(ctx, func(db *sql.DB) error {
		out = out[:0]
		rows, err := db.QueryContext(ctx, `SELECT rowid, id, role, parts, created_at, updated_at,
			finished_at IS NOT NULL, is_summary_message != 0
			FROM messages WHERE session_id = ? AND rowid > ? ORDER BY rowid LIMIT ?`, session, after, crushPage)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r crushRow
			if err := rows.Scan(&r.rowid, &r.id, &r.role, &r.parts, &r.created, &r.updated,
				&r.finished, &r.summary); err != nil {
				return err
			}
			out = append(out, r)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("read crush messages of %s: %w", session, err)
	}
	return out, nil
}
