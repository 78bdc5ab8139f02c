package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
)

// Conversation order: the same rule as the SQLite backend (docs/ledger.md,
// "Order"). A late event (EventInput.ByTime, older than events of its
// session already placed) gets the Order of the first event of its session,
// in display order, that occurred after it.

type placed struct {
	src int64
	key ledger.OrderKey
}

// placeLate sets Order on the late events of a batch about to be inserted
// (recs[i] belongs to fresh[i], its sequence already assigned).
func placeLate(ctx context.Context, t *tx, wsk int64, srcs sourceIDs, fresh []durable.Pending, recs []durable.Record) error {
	newest := map[int64]int64{}
	stored := map[int64]int64{}
	var batch []placed
	for i := range recs {
		r := &recs[i]
		if !fresh[i].In.ByTime || r.OccurredAt == nil {
			continue
		}
		src, err := srcs.get(ctx, t, r.Harness, r.NativeSessionID)
		if err != nil {
			return err
		}
		if _, ok := stored[src]; !ok {
			if stored[src], err = sourceNewest(ctx, t, src); err != nil {
				return err
			}
			newest[src] = stored[src]
		}
		k := ledger.OrderKey{Ord: r.Sequence, At: r.OccurredAt.UnixMicro(), Seq: r.Sequence}
		if k.At < newest[src] {
			f, err := firstAfter(ctx, t, wsk, src, k.At, stored[src], batch)
			if err != nil {
				return err
			}
			if f.Seq != 0 {
				k.Ord, r.Order = f.Ord, f.Ord
			}
		}
		newest[src] = max(newest[src], k.At)
		batch = append(batch, placed{src: src, key: k})
	}
	return nil
}

func sourceNewest(ctx context.Context, t *tx, src int64) (int64, error) {
	var at int64
	err := t.QueryRow(ctx, `SELECT newest_at FROM sources WHERE id = $1`, src).Scan(&at)
	if errors.Is(err, pgx.ErrNoRows) {
		err = nil
	}
	return at, err
}

func firstAfter(ctx context.Context, t *tx, wsk, src, at, storedNewest int64, batch []placed) (ledger.OrderKey, error) {
	var best ledger.OrderKey
	if at < storedNewest {
		err := t.QueryRow(ctx, sqlFirstAfterTime, wsk, at, src).Scan(&best.Ord, &best.At, &best.Seq)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
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
