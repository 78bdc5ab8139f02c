package transcript

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
	"strings"
	"time"
)

// OpenCodeBatch is what [opencodeSource.ReadFrom] hands to emit: the events
// and losses of a run of parts, and the cursor after the last of them.
type OpenCodeBatch struct {
	Events []Event
	Losses []Loss
	Cursor OpenCodeCursor
}

// Reads go in two steps, each in its own short read transaction (so a long
// import never pins a WAL snapshot that would stop OpenCode's checkpoints
// and grow its -wal file): the (time_updated, id) keys of up to
// opencodeKeyWindow parts after the cursor, sorted by SQLite on those
// narrow columns, then the parts themselves by primary key,
// opencodeFetchRows at a time, on one connection (see opencodeDB).
// Sorting whole rows page by page instead re-sorted every remaining part's
// data for each page: 1.3k parts/s on a 120k-part store, against ~40k parts
// per CPU-second this way (scripts/bench-opencode.sh).
var (
	opencodeKeyWindow = 50_000 // a variable so tests can cross windows
	opencodeFetchRows = 500
)

// opencodeStaleAfter is how long an unfinished part (a running tool, text
// still streaming) holds the import back. Older ones are final: OpenCode was
// killed mid-turn and will never finish them.
const opencodeStaleAfter = 10 * time.Minute

// opencodeNow is the clock of the staleness rule (tests replace it).
var opencodeNow = time.Now

// opencodeRow is one part joined with its message.
type opencodeRow struct {
	id, messageID    string
	created, updated int64
	data, msg        []byte // msg is nil when the message row is missing
}

// ReadFrom imports the parts of session s after from, in (time_updated, id)
// order, handing batches to emit. It stops before the first part OpenCode
// is still writing (see opencodeStaleAfter) or rewrote since its key was
// listed, so the cursor never passes a part whose final content has not
// been seen.
func (o opencodeSource) ReadFrom(ctx context.Context, s Session, from OpenCodeCursor, opt ReadOptions,
	emit func(OpenCodeBatch) error) error {
	db, err := openOpenCode(ctx, s.Path)
	if err != nil {
		return err
	}
	defer db.Close()
	r := &opencodeReader{opt: opt.withDefaults(), emit: emit, cur: from, sent: from, now: opencodeNow().UnixMilli(),
		systemSeen: map[string]bool{}}
	for {
		keys, err := opencodeKeys(ctx, db, s.ID, r.cur)
		if err != nil {
			return err
		}
		full := len(keys) == opencodeKeyWindow
		for len(keys) > 0 {
			n := min(len(keys), opencodeFetchRows)
			rows, err := opencodeFetch(ctx, db, s.ID, keys[:n])
			if err != nil {
				return err
			}
			done, err := r.page(keys[:n], rows)
			if err != nil || done {
				return errors.Join(err, r.flush(true))
			}
			keys = keys[n:]
		}
		if !full {
			return r.flush(true)
		}
	}
}

// opencodeKeys lists up to opencodeKeyWindow part keys after the cursor.
func opencodeKeys(ctx context.Context, db *opencodeDB, session string, c OpenCodeCursor) ([]OpenCodeCursor, error) {
	var keys []OpenCodeCursor
	err := db.do(ctx, func(db *sql.DB) error {
		keys = keys[:0]
		rows, err := db.QueryContext(ctx, `SELECT time_updated, id FROM part
			WHERE session_id = ? AND (time_updated > ? OR (time_updated = ? AND id > ?))
			ORDER BY time_updated, id LIMIT ?`, session, c.Updated, c.Updated, c.ID, opencodeKeyWindow)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var k OpenCodeCursor
			if err := rows.Scan(&k.Updated, &k.ID); err != nil {
				return err
			}
			keys = append(keys, k)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("list opencode parts of %s: %w", session, err)
	}
	return keys, nil
}

// opencodeFetch reads the parts named by keys, with their messages, by id.
func opencodeFetch(ctx context.Context, db *opencodeDB, session string, keys []OpenCodeCursor) (map[string]opencodeRow, error) {
	args := make([]any, len(keys))
	for i, k := range keys {
		args[i] = k.ID
	}
	q := `SELECT p.id, p.message_id, p.time_created, p.time_updated, p.data, m.data
		FROM part p LEFT JOIN message m ON m.id = p.message_id
		WHERE p.id IN (?` + strings.Repeat(",?", len(keys)-1) + `)`
	out := map[string]opencodeRow{}
	err := db.do(ctx, func(db *sql.DB) error {
		clear(out)
		rows, err := db.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r opencodeRow
			if err := rows.Scan(&r.id, &r.messageID, &r.created, &r.updated, &r.data, &r.msg); err != nil {
				return err
			}
			out[r.id] = r
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("read opencode parts of %s: %w", session, err)
	}
	return out, nil
}

// opencodeReader turns pages of rows into batches.
type opencodeReader struct {
	opt        ReadOptions
	emit       func(OpenCodeBatch) error
	cur        OpenCodeCursor // after the last row handled
	sent       OpenCodeCursor // cursor of the last batch emitted
	out        sink
	now        int64
	systemSeen map[string]bool // messages whose system prompt was noted
}

// page handles the parts of keys in order; done reports a part that is
// unfinished or changed since it was listed (stop before it). A part
// deleted meanwhile is passed over.
func (r *opencodeReader) page(keys []OpenCodeCursor, rows map[string]opencodeRow) (done bool, err error) {
	for _, k := range keys {
		row, ok := rows[k.ID]
		if ok && (row.updated != k.Updated || !opencodeSettled(row, r.now)) {
			return true, nil
		}
		if ok {
			r.part(row)
		}
		r.cur = OpenCodeCursor{Updated: k.Updated, ID: k.ID, N: r.cur.N + 1}
		if len(r.out.events)+len(r.out.losses) >= r.opt.BatchEvents || r.out.bytes >= r.opt.BatchBytes {
			if err := r.flush(false); err != nil {
				return false, err
			}
		}
	}
	return false, nil
}

// part parses one row, noting a message's custom system prompt once.
func (r *opencodeReader) part(row opencodeRow) {
	if row.msg == nil {
		r.out.loss(0, "opencode part "+row.id+" has no message row; skipped")
		return
	}
	if !r.systemSeen[row.messageID] && jsonx.Valid(row.msg) && len(jsonx.Get(row.msg, "system")) > 0 {
		r.systemSeen[row.messageID] = true
		r.out.loss(0, "system prompt of opencode message "+row.messageID+" not imported")
	}
	parseOpenCodePart(row, &r.out)
}

// flush emits what was collected; final also emits an empty batch when
// only the cursor moved, so the caller can persist it.
func (r *opencodeReader) flush(final bool) error {
	if len(r.out.events)+len(r.out.losses) == 0 && (!final || r.cur == r.sent) {
		return nil
	}
	b := OpenCodeBatch{Events: r.out.events, Losses: r.out.losses, Cursor: r.cur}
	r.out = sink{}
	r.sent = r.cur
	return r.emit(b)
}
