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

// Import reads sess from its saved cursor to the last complete record. On
// an error the stats count what was stored before it.
func (im *Importer) Import(ctx context.Context, src transcript.Source, sess transcript.Session) (ImportStats, error) {
	var st ImportStats
	partial, err := im.ImportAll(ctx, src, []transcript.Session{sess}, func(_ int, s ImportStats) error {
		st = s
		return nil
	})
	if err != nil {
		return partial, err
	}
	return st, nil
}

// ImportAll imports sessions one after the other, in order, calling done
// with each one's stats (an error from done stops the import). While the
// last batch of a session is written, the next session is already being
// read, so a backfill of many sessions does not wait for each one's first
// batch to be parsed. Batches still reach the ledger one at a time, in
// order, each with its cursor. When importing a session fails, partial
// counts what was stored of it before the error.
func (im *Importer) ImportAll(ctx context.Context, src transcript.Source, sessions []transcript.Session, done func(i int, st ImportStats) error) (partial ImportStats, err error) {
	if len(sessions) == 0 {
		return ImportStats{}, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait() // after cancel: no reader is left using the ledger or a file
	defer cancel()
	next := make(chan *sessionRead, 1)
	im.read(ctx, &wg, src, sessions, 0, next)
	for i := range sessions {
		r, ok := <-next
		if !ok {
			return ImportStats{Harness: src.Harness(), NativeSessionID: sessions[i].ID}, ctx.Err()
		}
		st, err := im.write(ctx, cancel, src, r)
		if err != nil {
			return st, err
		}
		if err := done(i, st); err != nil {
			return ImportStats{}, err
		}
		next = r.next
	}
	return ImportStats{}, nil
}

// sessionRead is one session being read on its own goroutine: its batches
// come through batches, closed once the session is read (err says how that
// ended); next then delivers the following session's sessionRead, or is
// closed when there is none to read.
type sessionRead struct {
	sess    transcript.Session
	from    transcript.Cursor // set before the first batch is sent
	batches chan readBatch
	err     error // set before batches is closed
	next    chan *sessionRead
}

// readBatch is a batch read and its ledger batch, prepared on the reading
// goroutine when the ledger prepares batches ahead (ledger.Preparer).
type readBatch struct {
	transcript.Batch
	ledger ledger.Batch
}

// read delivers sessions[i]'s sessionRead on out and reads the session on
// a new goroutine from its stored cursor; once that is done it goes on to
// sessions[i+1] (on r.next) unless ctx is cancelled.
func (im *Importer) read(ctx context.Context, wg *sync.WaitGroup, src transcript.Source, sessions []transcript.Session, i int, out chan<- *sessionRead) {
	r := &sessionRead{sess: sessions[i], batches: make(chan readBatch), next: make(chan *sessionRead, 1)}
	out <- r
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.from, r.err = im.cursor(ctx, src.Harness(), r.sess)
		if r.err == nil {
			r.err = src.Read(ctx, r.sess, r.from, transcript.ReadOptions{}, func(b transcript.Batch) error {
				select {
				case r.batches <- im.prepare(src, r.sess, b):
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			})
			if r.err != nil {
				r.err = fmt.Errorf("import %s session %s: %w", src.Harness(), r.sess.ID, r.err)
			}
		}
		close(r.batches)
		if i+1 == len(sessions) || ctx.Err() != nil {
			close(r.next)
			return
		}
		im.read(ctx, wg, src, sessions, i+1, r.next)
	}()
}

// write appends r's batches to the ledger, each batch and its cursor in
// one transaction. On a failed append it cancels the reading and waits
// for the reader to stop.
func (im *Importer) write(ctx context.Context, cancel context.CancelFunc, src transcript.Source, r *sessionRead) (ImportStats, error) {
	sess := r.sess
	st := ImportStats{Harness: src.Harness(), NativeSessionID: sess.ID}
	losses := map[string]bool{}
	var start int64
	var err error
	first := true
	for b := range r.batches {
		if err != nil {
			continue // drained until the reader sees the cancellation
		}
		if first {
			first = false
			var total int64
			start, total = src.Progress(sess, r.from)
			defer bulkGC(total - start)()
		}
		if err = im.append(ctx, b, &st, losses); err != nil {
			err = fmt.Errorf("import %s session %s: %w", src.Harness(), sess.ID, err)
			cancel()
			continue
		}
		done, _ := src.Progress(sess, b.Cursor)
		st.Bytes = done - start
		if im.Progress != nil {
			im.Progress(sess, done)
		}
	}
	if err == nil {
		err = r.err
	}
	for reason := range losses {
		st.LossNotes = append(st.LossNotes, reason)
	}
	sort.Strings(st.LossNotes)
	st.Losses = len(st.LossNotes)
	return st, err
}

// prepare makes the ledger batch of b; a ledger that can prepares it (its
// redaction and encoding) here, on the reading goroutine, while the batch
// before it is being written.
func (im *Importer) prepare(src transcript.Source, sess transcript.Session, b transcript.Batch) readBatch {
	lb := ledger.Batch{
		WorkstreamID: im.WorkstreamID,
		RunID:        im.RunID,
		Events:       toInputs(src.Harness(), sess.ID, b.Events),
		Cursor:       &ledger.CursorUpdate{Harness: src.Harness(), NativeSessionID: sess.ID, SourceCursor: string(b.Cursor)},
	}
	if p, ok := im.DB.(ledger.Preparer); ok {
		lb = p.Prepare(lb)
	}
	return readBatch{Batch: b, ledger: lb}
}

// append writes one batch with its cursor and counts it into st.
func (im *Importer) append(ctx context.Context, b readBatch, st *ImportStats, losses map[string]bool) error {
	res, err := im.DB.Append(ctx, b.ledger)
	if err != nil {
		return err
	}
	st.Added += res.Added
	st.Skipped += res.Skipped
	for _, l := range b.Losses {
		losses[l.Reason] = true
	}
	return nil
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
