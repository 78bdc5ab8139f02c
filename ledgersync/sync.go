package ledgersync

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/ai-memory/ai-memory/ledger"
)

// Item is one thing `ledger sync` sent: a run's journal or an offline run.
type Item struct {
	Kind   string `json:"kind"` // "journal" or "offline"
	Run    string `json:"run_id"`
	Events int    `json:"events"` // events sent
	Added  int    `json:"added"`  // of them, new to the ledger
}

// Item kinds.
const (
	KindJournal = "journal"
	KindOffline = "offline"
)

// Pending counts what home still owes the shared ledger.
func Pending(home string) (journalsLeft, offlineLeft int, err error) {
	js, err := journals(home)
	if err != nil {
		return 0, 0, err
	}
	offline, err := offlineRuns(home)
	return len(js), len(offline), err
}

// Sync sends what home owes dst: the journals of runs the ledger could not
// be reached from (replayed in order; a run still going is left to its
// own launcher) and the runs made offline in home's own ledger (opened
// with openLocal only when there are some). What was sent is removed from
// home. It goes on past a run it cannot send and reports all failures
// together; ledger.ErrUnavailable stops it at once.
func Sync(ctx context.Context, dst ledger.Ledger, home string, openLocal func() (ledger.Ledger, error)) ([]Item, error) {
	items, err := syncJournals(ctx, dst, home)
	if err != nil && errors.Is(err, ledger.ErrUnavailable) {
		return items, err
	}
	more, oerr := syncOffline(ctx, dst, home, openLocal)
	return append(items, more...), errors.Join(err, oerr)
}

func syncJournals(ctx context.Context, dst ledger.Ledger, home string) ([]Item, error) {
	js, err := journals(home)
	if err != nil {
		return nil, err
	}
	var items []Item
	var errs []error
	for _, id := range sortedKeys(js) {
		if live(ctx, dst, id) {
			continue // its launcher replays it
		}
		it, err := syncJournal(ctx, dst, id, js[id])
		if err != nil {
			if errors.Is(err, ledger.ErrUnavailable) {
				return items, err
			}
			errs = append(errs, fmt.Errorf("journal %s: %w", js[id], err))
			continue
		}
		items = append(items, it)
	}
	return items, errors.Join(errs...)
}

func syncJournal(ctx context.Context, dst ledger.Ledger, runID, path string) (Item, error) {
	recs, err := readJournal(path)
	if err != nil {
		return Item{}, err
	}
	done, err := replay(ctx, dst, recs)
	if err != nil {
		return Item{}, err
	}
	if err := os.Remove(path); err != nil {
		return Item{}, fmt.Errorf("remove the replayed journal: %w", err)
	}
	return Item{Kind: KindJournal, Run: runID, Events: done.Events, Added: done.Added}, nil
}

// live reports whether run id still has its launcher: active in l and,
// when it was launched on this machine (a journal always is), its process
// still there. That launcher sends its own journal; a dead one's is sent
// now, not after its lease lapses.
func live(ctx context.Context, l ledger.Ledger, id string) bool {
	r, err := l.Run(ctx, id)
	if err != nil || r.State != ledger.RunActive {
		return false
	}
	if r.Owner.Machine != "" && r.Owner.Machine != l.Machine() {
		return true // another machine's: its own launcher's business
	}
	return ledger.ProcessAlive(r.Owner)
}

func syncOffline(ctx context.Context, dst ledger.Ledger, home string, openLocal func() (ledger.Ledger, error)) ([]Item, error) {
	notes, err := offlineRuns(home)
	if err != nil || len(notes) == 0 {
		return nil, err
	}
	src, err := openLocal()
	if err != nil {
		return nil, fmt.Errorf("open this machine's local ledger: %w", err)
	}
	defer src.Close()
	var items []Item
	var errs []error
	for _, id := range sortedKeys(notes) {
		c, err := CopyRun(ctx, src, dst, id)
		switch {
		case errors.Is(err, errRunning):
			continue // still going: the next sync sends it
		case errors.Is(err, ledger.ErrUnavailable):
			return items, err
		case err != nil:
			errs = append(errs, fmt.Errorf("offline run %s: %w", id, err))
			continue
		}
		if err := os.Remove(notes[id]); err != nil {
			errs = append(errs, fmt.Errorf("offline run %s: remove its note: %w", id, err))
		}
		items = append(items, Item{Kind: KindOffline, Run: id, Events: c.Events, Added: c.Added})
	}
	return items, errors.Join(errs...)
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
