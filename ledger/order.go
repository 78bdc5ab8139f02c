package ledger

import (
	"context"
	"database/sql"
	"errors"
	"sort"
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

// orderKey is an event's display key.
type orderKey struct{ ord, at, seq int64 }

func (a orderKey) less(b orderKey) bool {
	if a.ord != b.ord {
		return a.ord < b.ord
	}
	if a.at != b.at && a.at != 0 && b.at != 0 {
		return a.at < b.at
	}
	return a.seq < b.seq
}

// placed is a ByTime event of the batch being appended, with its key.
type placed struct {
	src int64
	key orderKey
}

// placeLate sets Order on the late events of a batch about to be inserted
// (recs[i] belongs to fresh[i], its sequence already assigned). A source's
// newest stored time decides lateness without a lookup for nearly every
// event; a late one looks up the first later event of its source.
func placeLate(ctx context.Context, tx *sql.Tx, wsk int64, srcs sourceIDs, fresh []pending, recs []segmentRecord) error {
	newest := map[int64]int64{} // per source: newest time among stored and placed events
	stored := map[int64]int64{} // per source: newest stored time
	var batch []placed
	for i, p := range fresh {
		if !p.in.ByTime || p.in.OccurredAt.IsZero() {
			continue
		}
		src, err := srcs.get(ctx, tx, p.in.Harness, p.in.NativeSessionID)
		if err != nil {
			return err
		}
		if _, ok := stored[src]; !ok {
			if stored[src], err = sourceNewest(ctx, tx, src); err != nil {
				return err
			}
			newest[src] = stored[src]
		}
		k := orderKey{ord: recs[i].Sequence, at: p.in.OccurredAt.UnixMicro(), seq: recs[i].Sequence}
		if k.at < newest[src] {
			f, err := firstAfter(ctx, tx, wsk, src, k.at, stored[src], batch)
			if err != nil {
				return err
			}
			if f.seq != 0 {
				k.ord, recs[i].Order = f.ord, f.ord
			}
		}
		newest[src] = max(newest[src], k.at)
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
func firstAfter(ctx context.Context, tx *sql.Tx, wsk, src, at, storedNewest int64, batch []placed) (orderKey, error) {
	var best orderKey
	if at < storedNewest {
		err := tx.QueryRowContext(ctx, sqlFirstAfterTime, wsk, at, src).Scan(&best.ord, &best.at, &best.seq)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return best, err
		}
	}
	for _, b := range batch {
		if b.src == src && b.key.at > at && (best.seq == 0 || b.key.less(best)) {
			best = b.key
		}
	}
	return best, nil
}

// noteNewest raises each source's newest time to its events just inserted.
func noteNewest(ctx context.Context, tx *sql.Tx, srcs sourceIDs, fresh []pending) error {
	newest := map[int64]int64{}
	for _, p := range fresh {
		if p.in.OccurredAt.IsZero() {
			continue
		}
		src := srcs[[2]string{p.in.Harness, p.in.NativeSessionID}]
		newest[src] = max(newest[src], p.in.OccurredAt.UnixMicro())
	}
	for src, t := range newest {
		if _, err := tx.ExecContext(ctx, sqlBumpNewest, t, src); err != nil {
			return err
		}
	}
	return nil
}

// SortConversation sorts events into conversation order: by Order, then
// by occurrence time within one Order (a late event and the event it is
// shown before), then by Sequence.
func SortConversation(evs []Event) {
	sort.SliceStable(evs, func(i, j int) bool { return keyOf(evs[i]).less(keyOf(evs[j])) })
}

func keyOf(e Event) orderKey {
	k := orderKey{ord: e.Order, seq: e.Sequence}
	if k.ord == 0 {
		k.ord = e.Sequence
	}
	if !e.OccurredAt.IsZero() {
		k.at = e.OccurredAt.UnixMicro()
	}
	return k
}
