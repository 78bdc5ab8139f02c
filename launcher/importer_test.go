package launcher

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/transcript"
)

// batchSource is a transcript source of sessions "s0", "s1", ... of n
// batches each; its cursor is the count of batches read, so a session
// resumes after its last stored batch. Only what the Importer calls is
// implemented.
type batchSource struct {
	transcript.Source
	n     int
	reads sync.Map // session id -> cursor it was read from
}

func (s *batchSource) Harness() string { return "claude" }

func (s *batchSource) Read(ctx context.Context, sess transcript.Session, from transcript.Cursor, _ transcript.ReadOptions, emit func(transcript.Batch) error) error {
	s.reads.Store(sess.ID, string(from))
	start, _ := strconv.Atoi(string(from))
	for i := start; i < s.n; i++ {
		ev := transcript.Event{Kind: "message", Role: "user", Content: fmt.Sprintf("%s batch %d", sess.ID, i), RecordID: fmt.Sprintf("%s-%d", sess.ID, i)}
		if err := emit(transcript.Batch{Events: []transcript.Event{ev}, Cursor: transcript.Cursor(strconv.Itoa(i + 1))}); err != nil {
			return err
		}
	}
	return nil
}

func (s *batchSource) Progress(_ transcript.Session, c transcript.Cursor) (int64, int64) {
	n, _ := strconv.Atoi(string(c))
	return int64(n), int64(s.n)
}

// recordingLedger records the content of every appended event in order
// and fails the append of failOn.
type recordingLedger struct {
	ledger.Ledger
	mu       sync.Mutex
	order    []string
	failOn   string
	onAppend func(content string)
}

func (l *recordingLedger) Append(ctx context.Context, b ledger.Batch) (ledger.AppendResult, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range b.Events {
		if e.Content == l.failOn {
			return ledger.AppendResult{}, errors.New("disk full")
		}
		if l.onAppend != nil {
			l.onAppend(e.Content)
		}
		l.order = append(l.order, e.Content)
	}
	return l.Ledger.Append(ctx, b)
}

func sessionsNamed(n int) []transcript.Session {
	var out []transcript.Session
	for i := range n {
		out = append(out, transcript.Session{Harness: "claude", ID: "s" + strconv.Itoa(i)})
	}
	return out
}

// TestImportAll: the next session is read while the last batch of one is
// written; sessions read ahead of their writing still reach the
// ledger one batch at a time in session order, each with its cursor; a
// failed append stops the import at that batch (its stats count what was
// stored), leaves no reader running, and the next import resumes every
// session where it stopped.
func TestImportAll(t *testing.T) {
	ctx := context.Background()
	inner, ws, _ := openTestLedger(t)
	db := &recordingLedger{Ledger: inner, failOn: "s2 batch 1"}
	src := &batchSource{n: 3}
	im := &Importer{DB: db, WorkstreamID: ws.ID, RunID: "import"}
	sessions := sessionsNamed(4)
	readAhead := false
	db.onAppend = func(content string) {
		if content != "s0 batch 2" {
			return
		}
		for deadline := time.Now().Add(2 * time.Second); !readAhead && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			_, readAhead = src.reads.Load("s1")
		}
	}
	goroutines := runtime.NumGoroutine()
	var stats []ImportStats
	partial, err := im.ImportAll(ctx, src, sessions, func(i int, st ImportStats) error {
		stats = append(stats, st)
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "import claude session s2: disk full") {
		t.Fatalf("ImportAll = %v; want s2's failed append", err)
	}
	if partial.NativeSessionID != "s2" || partial.Added != 1 {
		t.Errorf("partial stats %+v; want s2's one stored batch", partial)
	}
	want := "s0 batch 0,s0 batch 1,s0 batch 2,s1 batch 0,s1 batch 1,s1 batch 2,s2 batch 0"
	if got := strings.Join(db.order, ","); got != want {
		t.Fatalf("appended %s; want %s", got, want)
	}
	if len(stats) != 2 || stats[0].NativeSessionID != "s0" || stats[0].Added != 3 || stats[1].Bytes != 3 {
		t.Fatalf("stats %+v; want s0 and s1 with 3 batches each", stats)
	}
	if !readAhead {
		t.Error("s1 was not being read while s0's last batch was written")
	}
	waitGoroutines(t, goroutines)

	db.failOn, db.order, db.onAppend = "", nil, nil
	stats = nil
	if _, err := im.ImportAll(ctx, src, sessions, func(i int, st ImportStats) error {
		stats = append(stats, st)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want = "s2 batch 1,s2 batch 2,s3 batch 0,s3 batch 1,s3 batch 2"
	if got := strings.Join(db.order, ","); got != want {
		t.Fatalf("resumed import appended %s; want %s", got, want)
	}
	for i, from := range []string{"3", "3", "1", ""} {
		if got, _ := src.reads.Load(sessions[i].ID); got != from {
			t.Errorf("%s read from cursor %q; want %q", sessions[i].ID, got, from)
		}
	}
	if len(stats) != 4 || stats[2].Added != 2 || stats[0].Added != 0 {
		t.Fatalf("stats %+v; want 4 sessions, s2 adding its 2 last batches", stats)
	}
}

// TestImportAll_DoneStops: an error from done stops the import before the
// next session is written.
func TestImportAll_DoneStops(t *testing.T) {
	inner, ws, _ := openTestLedger(t)
	db := &recordingLedger{Ledger: inner}
	im := &Importer{DB: db, WorkstreamID: ws.ID, RunID: "import"}
	stop := errors.New("stop")
	_, err := im.ImportAll(context.Background(), &batchSource{n: 2}, sessionsNamed(3), func(i int, _ ImportStats) error {
		return stop
	})
	if !errors.Is(err, stop) || strings.Join(db.order, ",") != "s0 batch 0,s0 batch 1" {
		t.Fatalf("ImportAll = %v after appending %v; want stop after s0", err, db.order)
	}
}

// waitGoroutines waits for the goroutine count to fall back to n.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines left running, want %d:\n%s", runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// preparingLedger is a recordingLedger whose ledger prepares batches ahead.
type preparingLedger struct {
	*recordingLedger
	prepared, unprepared int
}

func (l *preparingLedger) Prepare(b ledger.Batch) ledger.Batch {
	return l.Ledger.(ledger.Preparer).Prepare(b)
}

func (l *preparingLedger) Append(ctx context.Context, b ledger.Batch) (ledger.AppendResult, error) {
	if b.Prepared != nil {
		l.prepared++
	} else {
		l.unprepared++
	}
	return l.recordingLedger.Append(ctx, b)
}

// TestImportAll_PreparesAhead: with a ledger that prepares batches ahead
// (ledger.Preparer), every batch reaches Append prepared, and the events
// are stored as an unprepared import stores them.
func TestImportAll_PreparesAhead(t *testing.T) {
	inner, ws, _ := openTestLedger(t)
	if _, ok := inner.(ledger.Preparer); !ok {
		t.Skip("the test ledger does not prepare batches ahead")
	}
	db := &preparingLedger{recordingLedger: &recordingLedger{Ledger: inner}}
	im := &Importer{DB: db, WorkstreamID: ws.ID, RunID: "import"}
	if _, err := im.ImportAll(context.Background(), &batchSource{n: 3}, sessionsNamed(2), func(int, ImportStats) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if db.prepared != 6 || db.unprepared != 0 {
		t.Fatalf("%d prepared and %d unprepared appends; want all 6 prepared", db.prepared, db.unprepared)
	}
	evs, err := inner.EventsInRange(context.Background(), ws.ID, 0, 10, 0)
	if err != nil || len(evs) != 6 || evs[5].Content != "s1 batch 2" {
		t.Fatalf("stored %d events, %v; want the 6 batches in order", len(evs), err)
	}
}
