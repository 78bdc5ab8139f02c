package launcher

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/transcript"
)

// ImportStats summarises one session import.
type ImportStats struct {
	Harness         string   `json:"harness"`
	NativeSessionID string   `json:"native_session_id"`
	Added           int      `json:"added"`
	Skipped         int      `json:"skipped"`
	Losses          int      `json:"losses"`
	LossNotes       []string `json:"loss_notes,omitempty"`
	Bytes           int64    `json:"bytes"`
}

// Importer imports native sessions into one workstream, resuming each from
// the cursor stored with its link row. Every batch and its cursor commit in
// one ledger transaction, so a killed import resumes where it stopped and a
// replay adds nothing.
type Importer struct {
	DB           ledger.Ledger
	WorkstreamID string
	RunID        string
	// Progress, when set, is called after each batch with how far the import
	// got, in the source's unit (see [transcript.Source.Progress]).
	Progress func(sess transcript.Session, offset int64)
}

// Import reads sess from its saved cursor to the last complete record.
func (im *Importer) Import(ctx context.Context, src transcript.Source, sess transcript.Session) (ImportStats, error) {
	st := ImportStats{Harness: src.Harness(), NativeSessionID: sess.ID}
	from, err := im.cursor(ctx, src.Harness(), sess)
	if err != nil {
		return st, err
	}
	start, total := src.Progress(sess, from)
	defer bulkGC(total - start)()
	losses := map[string]bool{}
	emit := func(b transcript.Batch) error {
		res, err := im.DB.Append(ctx, ledger.Batch{
			WorkstreamID: im.WorkstreamID,
			RunID:        im.RunID,
			Events:       toInputs(src.Harness(), sess.ID, b.Events),
			Cursor:       &ledger.CursorUpdate{Harness: src.Harness(), NativeSessionID: sess.ID, SourceCursor: string(b.Cursor)},
		})
		if err != nil {
			return err
		}
		st.Added += res.Added
		st.Skipped += res.Skipped
		for _, l := range b.Losses {
			losses[l.Reason] = true
		}
		done, _ := src.Progress(sess, b.Cursor)
		st.Bytes = done - start
		if im.Progress != nil {
			im.Progress(sess, done)
		}
		return nil
	}
	if err := src.Read(ctx, sess, from, transcript.ReadOptions{}, emit); err != nil {
		return st, fmt.Errorf("import %s session %s: %w", src.Harness(), sess.ID, err)
	}
	for r := range losses {
		st.LossNotes = append(st.LossNotes, r)
	}
	sort.Strings(st.LossNotes)
	st.Losses = len(st.LossNotes)
	return st, nil
}

func (im *Importer) cursor(ctx context.Context, harnessName string, sess transcript.Session) (transcript.Cursor, error) {
	link, ok, err := im.DB.SessionLink(ctx, im.WorkstreamID, harnessName, sess.ID)
	if err != nil || !ok {
		return "", err
	}
	// Opaque to us: the source restarts from 0 on a cursor it cannot use,
	// and event ids dedupe the replay.
	return transcript.Cursor(link.SourceCursor), nil
}

func toInputs(harnessName, sessionID string, evs []transcript.Event) []ledger.EventInput {
	out := make([]ledger.EventInput, 0, len(evs))
	for _, e := range evs {
		if strings.TrimSpace(e.Content) == "" {
			continue
		}
		out = append(out, ledger.EventInput{
			Harness:         harnessName,
			NativeSessionID: sessionID,
			SourceRecordID:  e.RecordID,
			BlockIndex:      e.BlockIndex,
			Kind:            ledger.Kind(e.Kind),
			Role:            e.Role,
			OccurredAt:      e.OccurredAt,
			Metadata:        e.Metadata,
			Content:         e.Content,
			ByTime:          e.ByTime,
		})
	}
	return out
}

// Bulk imports (a backfill, or the tail of a long session) allocate about
// 11 bytes per byte read, nearly all short-lived; with the default GOGC the
// collector then costs ~10% of the CPU. Above bulkImportBytes of unread
// transcript the GC runs less often (GOGC 400) under a soft memory limit
// that keeps the process within the 64 MB RSS budget (SQLite's page cache
// is outside the Go heap). Measured on the 200 MB synthetic session: CPU
// -10 to -15%, peak RSS ~55 MB instead of ~40 MB (without the limit GOGC
// 400 alone reaches ~85 MB). A user's own GOGC or GOMEMLIMIT is respected.
const (
	bulkImportBytes = 16 << 20
	bulkGCPercent   = 400
	bulkMemoryLimit = 40 << 20
)

var bulk struct {
	sync.Mutex
	depth   int
	percent int
	limit   int64
}

// bulkGC applies the bulk-import GC settings when unread bytes warrant it
// and returns the function that restores the previous ones. Overlapping
// imports share one setting: the last to finish restores.
func bulkGC(unread int64) (restore func()) {
	if unread < bulkImportBytes || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	bulk.Lock()
	defer bulk.Unlock()
	if bulk.depth == 0 {
		bulk.percent = debug.SetGCPercent(bulkGCPercent)
		bulk.limit = debug.SetMemoryLimit(bulkMemoryLimit)
	}
	bulk.depth++
	return func() {
		bulk.Lock()
		defer bulk.Unlock()
		if bulk.depth--; bulk.depth == 0 {
			debug.SetGCPercent(bulk.percent)
			debug.SetMemoryLimit(bulk.limit)
		}
	}
}
