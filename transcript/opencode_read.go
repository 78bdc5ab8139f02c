package transcript

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// OpenCodeBatch is what [opencodeSource.ReadFrom] hands to emit: the events
// and losses of a run of parts, and the cursor after the last of them.
type OpenCodeBatch struct {
	Events []Event
	Losses []Loss
	Cursor OpenCodeCursor
}

// opencodePageRows bounds one query. Each page is its own short read
// transaction, so a long import never pins a WAL snapshot that would stop
// OpenCode's checkpoints and grow its -wal file.
const opencodePageRows = 1000

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
// is still writing (see opencodeStaleAfter), so the cursor never passes a
// part whose final content has not been seen.
func (o opencodeSource) ReadFrom(ctx context.Context, s Session, from OpenCodeCursor, opt ReadOptions,
	emit func(OpenCodeBatch) error) error {
	r := &opencodeReader{opt: opt.withDefaults(), emit: emit, cur: from, sent: from, now: opencodeNow().UnixMilli(),
		systemSeen: map[string]bool{}}
	for {
		var rows []opencodeRow
		err := withOpenCodeDB(ctx, s.Path, func(db *sql.DB) (err error) {
			rows, err = opencodePage(ctx, db, s.ID, r.cur)
			return err
		})
		if err != nil {
			return err
		}
		done, err := r.page(rows)
		if err != nil {
			return err
		}
		if done || len(rows) < opencodePageRows {
			return r.flush(true)
		}
	}
}

// opencodePage reads up to opencodePageRows parts after the cursor.
func opencodePage(ctx context.Context, db *sql.DB, session string, c OpenCodeCursor) ([]opencodeRow, error) {
	rows, err := db.QueryContext(ctx, `SELECT p.id, p.message_id, p.time_created, p.time_updated, p.data, m.data
		FROM part p LEFT JOIN message m ON m.id = p.message_id
		WHERE p.session_id = ? AND (p.time_updated > ? OR (p.time_updated = ? AND p.id > ?))
		ORDER BY p.time_updated, p.id LIMIT ?`, session, c.Updated, c.Updated, c.ID, opencodePageRows)
	if err != nil {
		return nil, fmt.Errorf("read opencode parts of %s: %w", session, err)
	}
	defer rows.Close()
	var out []opencodeRow
	for rows.Next() {
		var r opencodeRow
		if err := rows.Scan(&r.id, &r.messageID, &r.created, &r.updated, &r.data, &r.msg); err != nil {
			return nil, fmt.Errorf("read opencode parts of %s: %w", session, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
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

// page handles rows in order; done reports an unfinished part (stop here).
func (r *opencodeReader) page(rows []opencodeRow) (done bool, err error) {
	for _, row := range rows {
		if !opencodeSettled(row, r.now) {
			return true, nil
		}
		r.part(row)
		r.cur = OpenCodeCursor{Updated: row.updated, ID: row.id}
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
	if !r.systemSeen[row.messageID] && jsonValid(row.msg) && len(jsonGet(row.msg, "system")) > 0 {
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
