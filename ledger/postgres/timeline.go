package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/ai-memory/ai-memory/ledger"
)

// SpanOf finds the sequence range of the events run r appended, by binary
// search over the (wsk, sequence) key on segment ids as the SQLite backend
// does: segments are named after their run, and a workstream's segment ids
// grow with its sequences (one writer at a time).
func (db *DB) SpanOf(ctx context.Context, r ledger.Run) (ledger.RunSpan, error) {
	sp := ledger.RunSpan{Run: r}
	var wsk, last int64
	err := db.pool.QueryRow(ctx, sqlWorkstreamCounters, r.WorkstreamID).Scan(&wsk, &last)
	if err != nil {
		return sp, db.notFound(err, r.WorkstreamID, "read workstream")
	}
	prefix := "segments/" + r.WorkstreamID + "/" + r.ID + "-"
	var lo, hi int64
	if err := db.pool.QueryRow(ctx, sqlRunSegmentRange, prefix, prefix+"\U0010FFFF").Scan(&lo, &hi); err != nil || lo == 0 {
		return sp, db.wrap(err, "read run segments")
	}
	first, err := db.firstSequenceWithSegment(ctx, wsk, last, lo)
	if err != nil {
		return sp, err
	}
	end, err := db.firstSequenceWithSegment(ctx, wsk, last, hi+1)
	if err != nil {
		return sp, err
	}
	if first <= last && end > first {
		sp.FirstSequence, sp.LastSequence = first, end-1
	}
	return sp, nil
}

// firstSequenceWithSegment is the smallest sequence in [1, last] whose
// event's segment id is >= seg, or last+1 when there is none.
func (db *DB) firstSequenceWithSegment(ctx context.Context, wsk, last, seg int64) (int64, error) {
	lo, hi := int64(1), last+1
	for lo < hi {
		mid := lo + (hi-lo)/2
		var at, s int64
		err := db.pool.QueryRow(ctx, sqlSegmentAtSequence, wsk, mid).Scan(&at, &s)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			hi = mid
			continue
		case err != nil:
			return 0, db.wrap(err, "locate run events")
		}
		if s >= seg {
			hi = mid
		} else {
			lo = at + 1
		}
	}
	return lo, nil
}
