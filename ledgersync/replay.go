package ledgersync

import (
	"context"
	"errors"
	"fmt"

	"github.com/ai-memory/ai-memory/ledger"
)

// Replayed says what a replay sent.
type Replayed struct {
	Records, Events, Added int
}

// replay applies recs to l in order and stops at the first failure,
// returning what it sent before it. Every record is idempotent: appends
// dedupe by event id, links and sessions set what is already set, and a
// run that can no longer be finished (it expired or was taken over while
// the ledger was away) keeps the state the ledger gave it.
func replay(ctx context.Context, l ledger.Ledger, recs []record) (Replayed, error) {
	var done Replayed
	for i, r := range recs {
		added, err := apply(ctx, l, r)
		if err != nil {
			return done, fmt.Errorf("replay record %d of %d (%s): %w", i+1, len(recs), r.Op, err)
		}
		done.Records++
		done.Events += len(r.Events)
		done.Added += added
	}
	return done, nil
}

func apply(ctx context.Context, l ledger.Ledger, r record) (int, error) {
	switch r.Op {
	case opAppend:
		res, err := l.Append(ctx, r.batch())
		return res.Added, err
	case opLink:
		_, err := l.LinkSession(ctx, r.Workstream, r.Harness, r.Session)
		return 0, err
	case opSession:
		return 0, l.SetRunSession(ctx, r.Run, r.Session)
	case opFinish:
		err := l.FinishRun(ctx, r.Run, r.ExitCode)
		if errors.Is(err, ledger.ErrLeaseLost) {
			return 0, nil
		}
		return 0, err
	}
	return 0, fmt.Errorf("unknown journal operation %q (written by a newer ai-memory?)", r.Op)
}
