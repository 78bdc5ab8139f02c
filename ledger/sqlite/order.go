package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
)

// Conversation order (docs/ledger.md, "Order"). A sequence is the order in
// which events reached the ledger and never changes: the handoff's "unseen
// since" cursor counts on it. Conversation order differs when a harness
// writes a record to its store after records it precedes. Such a late event
// (EventInput.ByTime, older than events of its session already placed) gets
// Order = the Order of the first event of its session, in display order,
// that occurred after it; the display key (Order, OccurredAt, Sequence) then
// shows it right before that event. The key depends only on the events and
// their arrival order, so reading a transcript in one pass or in many small
// appends gives the same order.

// placed is a ByTime event of the batch being appended, with its key.
type placed struct {
	src int64
	key ledger.OrderKey
}

// placeLate sets Order on the late events of a batch about to be inserted
// (recs[i] belongs to fresh[i], its sequence already assigned). A source's
// newest stored time decides lateness without a lookup for nearly every
// event; a late one looks up the first later event of its source.
func placeLate(ctx context.Context, tx *sql.Tx, wsk int64, srcs sourceIDs, fresh []pending, recs []durable.Record) error {
	newest := map[int64]int64{} // per source: newest time among stored and placed events
	stored := map[int64]int64{} // per source: newest stored time
	var batch []placed
	for i, p := range fresh {
		if !p.In.ByTime || p.In.OccurredAt.IsZero() {
			continue
		}
		src, err := srcs.get(ctx, tx, p.In.Harness, p.In.NativeSessionID)
		if err != nil {
			return err
		}
		if _, ok := stored[src]; !ok {
			if stored[src], err = sourceNewest(ctx, tx, src); err != nil {
				return err
			}
			newest[src] = stored[src]
		}
		k := ledger.OrderKey{Ord: recs[i].Sequence, At: p.In.OccurredAt.UnixMicro(), Seq: recs[i].Sequence}
		if k.At < newest[src] {
			f, err := firstAfter(ctx, tx, wsk, src, k.At, stored[src], batch)
			if err != nil {
				return err
			}
			if f.Seq != 0 {
				k.Ord, recs[i].Order = f.Ord, f.Ord
			}
		}
		newest[src] = max(newest[src], k.At)
		batch = append(batch, placed{src: src, key: k})
	}
	return nil
}

func sourceNewest(ctx context.Context, tx *sql.Tx, src int64) (int64, error) {
	var t int64
	err := tx.QueryRowContext(ctx, sqlSourceNewest, src).Scan(&t)
	if errors.Is(err, sql.ErrNoRows) {
		err = nil
	}
	return t, err
}

// firstAfter is the first event of src, in display order, that occurred
// after at: among the stored ones (looked up only when some is newer) and
// the batch's earlier ones. Zero when there is none.
func firstAfter(ctx context.Context, tx *sql.Tx, wsk, src, at, storedNewest int64, batch []placed) (ledger.OrderKey, error) {
	var best ledger.OrderKey
	if at < storedNewest {
		err := tx.QueryRowContext(ctx, sqlFirstAfterTime, wsk, at, src).Scan(&best.Ord, &best.At, &best.Seq)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return best, err
		}
	}
	for _, b := range batch {
		if b.src == src && b.key.At > at && (best.Seq == 0 || b.key.Less(best)) {
			best = b.key
		}
	}
	return best, nil
}

// noteNewest raises each source's newest time to its events just inserted.
func noteNewest(ctx context.Context, tx *sql.Tx, srcs sourceIDs, fresh []pending) error {
	newest := map[int64]int64{}
	for _, p := range fresh {
		if p.In.OccurredAt.IsZero() {
			continue
		}
		src := srcs[[2]string{p.In.Harness, p.In.NativeSessionID}]
		newest[src] = max(newest[src], p.In.OccurredAt.UnixMicro())
	}
	for src, t := range newest {
		if _, err := tx.ExecContext(ctx, sqlBumpNewest, t, src); err != nil {
			return err
		}
	}
	return nil
}
