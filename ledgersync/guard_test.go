package ledgersync

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/ledgertest"
	"github.com/ai-memory/ai-memory/ledger/sqlite"
)

// syncBuffer is a notice sink safe for the retry goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// runFixture is a run in progress on a ledger that can go down.
type runFixture struct {
	db    *ledgertest.Faulty
	g     *Guard
	ws    ledger.Workstream
	run   ledger.Run
	warn  *syncBuffer
	inner ledger.Ledger
}

func newRun(t *testing.T, home string) *runFixture {
	t.Helper()
	ctx := context.Background()
	inner, err := sqlite.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	f := &runFixture{db: ledgertest.NewFaulty(inner), warn: &syncBuffer{}, inner: inner}
	f.ws, err = inner.SelectWorkstream(ctx, ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w"}, ledger.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	// A launcher of this host that is gone (as after the run ended).
	f.run, _, err = inner.AcquireLease(ctx, f.ws.ID, "claude", ledger.Owner{Host: ledger.CurrentOwner().Host, PID: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	f.g = NewGuard(f.db, f.run.ID, f.warn)
	return f
}

// batch is events [from, from+n) of session s with the cursor after them.
func (f *runFixture) batch(from, n int) ledger.Batch {
	b := ledger.Batch{WorkstreamID: f.ws.ID, RunID: f.run.ID,
		Cursor: &ledger.CursorUpdate{Harness: "claude", NativeSessionID: "s", SourceCursor: fmt.Sprint(from + n)}}
	for i := from; i < from+n; i++ {
		b.Events = append(b.Events, ledger.EventInput{Harness: "claude", NativeSessionID: "s", SourceRecordID: fmt.Sprintf("r%d", i),
			Kind: ledger.KindMessage, Role: "user", Content: fmt.Sprintf("event %d", i), OccurredAt: time.Unix(int64(1000+i), 0)})
	}
	return b
}

func (f *runFixture) append(t *testing.T, from, n int) ledger.AppendResult {
	t.Helper()
	res, err := f.g.Append(context.Background(), f.batch(from, n))
	if err != nil {
		t.Fatalf("Append: %v", err)
	}
	return res
}

// contents are the stored events' contents in sequence order.
func (f *runFixture) contents(t *testing.T) []string {
	t.Helper()
	return contentsOf(t, f.inner, f.ws.ID)
}

func contentsOf(t *testing.T, l ledger.Ledger, wsID string) []string {
	t.Helper()
	evs, err := l.EventsAfter(context.Background(), wsID, 0, 1<<62, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		out = append(out, e.Content)
	}
	return out
}

func want(from, n int) []string {
	var out []string
	for i := from; i < from+n; i++ {
		out = append(out, fmt.Sprintf("event %d", i))
	}
	return out
}

// TestGuard_OutageMidRun: batches written while the ledger is down are
// kept in the journal (fsynced, one notice), and the first write after it
// is back sends them first, so the ledger has every event once, in the
// order the run wrote them; a second replay of the same journal adds
// nothing.
func TestGuard_OutageMidRun(t *testing.T) {
	ctx := context.Background()
	f := newRun(t, t.TempDir())
	defer f.g.Close()
	f.append(t, 0, 2)
	f.db.SetDown(true)
	if res := f.append(t, 2, 3); res.Added != 0 {
		t.Fatalf("a kept batch reported %d added", res.Added)
	}
	if _, err := f.g.RenewLease(ctx, f.run.ID); err == nil {
		t.Fatal("a heartbeat during the outage succeeded")
	}
	if err := f.g.SetRunSession(ctx, f.run.ID, "s"); err != nil {
		t.Fatal(err)
	}
	f.append(t, 5, 1)
	if link, ok, err := f.g.SessionLink(ctx, f.ws.ID, "claude", "s"); err != nil || !ok || link.SourceCursor != "6" {
		t.Fatalf("SessionLink during the outage = %+v %v %v; want the kept cursor 6", link, ok, err)
	}
	kept, err := os.ReadFile(f.g.Journal())
	if err != nil || strings.Count(string(kept), "\n") != 3 {
		t.Fatalf("journal = %q, %v; want 3 records", kept, err)
	}
	if got := strings.Count(f.warn.String(), "unreachable"); got != 1 {
		t.Fatalf("%d outage notices; want 1:\n%s", got, f.warn)
	}
	f.db.SetDown(false)
	f.append(t, 6, 1)
	if got := f.contents(t); strings.Join(got, ",") != strings.Join(want(0, 7), ",") {
		t.Fatalf("stored %v; want %v", got, want(0, 7))
	}
	if r, _ := f.inner.Run(ctx, f.run.ID); r.NativeSessionID != "s" {
		t.Fatalf("run session %q; want the kept s", r.NativeSessionID)
	}
	if _, err := os.Stat(f.g.Journal()); !os.IsNotExist(err) {
		t.Fatalf("journal still there after the replay (%v)", err)
	}
	if !strings.Contains(f.warn.String(), "reachable again; 4 kept event(s) sent") {
		t.Fatalf("no recovery notice:\n%s", f.warn)
	}
	// Replaying the same journal again (a sync racing the launcher, a
	// crash after the replay and before the removal) adds nothing.
	recs, err := readJournalBytes(t, kept)
	if err != nil {
		t.Fatal(err)
	}
	done, err := replay(ctx, f.inner, recs)
	if err != nil || done.Events != 4 || done.Added != 0 {
		t.Fatalf("second replay = %+v, %v; want 4 events sent, 0 added", done, err)
	}
	if n, _ := f.inner.CountEvents(ctx, f.ws.ID); n != 7 {
		t.Fatalf("%d events after the second replay; want 7", n)
	}
}

func readJournalBytes(t *testing.T, b []byte) ([]record, error) {
	p := t.TempDir() + "/j.jsonl"
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return readJournal(p)
}

// TestGuard_StillDownAtTheEnd: the finish is kept too; Close says where
// the events are, and Sync sends them (run finished with its exit code)
// once the ledger is back, twice without duplicates.
func TestGuard_StillDownAtTheEnd(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	f := newRun(t, home)
	f.append(t, 0, 1)
	f.db.SetDown(true)
	f.append(t, 1, 2)
	code := 3
	if err := f.g.FinishRun(ctx, f.run.ID, &code); err != nil {
		t.Fatalf("FinishRun during the outage = %v; want it kept", err)
	}
	if _, err := f.g.LinkSession(ctx, f.ws.ID, "claude", "s"); err != nil {
		t.Fatal(err)
	}
	f.g.Close()
	if !strings.Contains(f.warn.String(), "2 event(s) of this run are kept in "+f.g.Journal()) {
		t.Fatalf("Close did not say where the events are:\n%s", f.warn)
	}
	f.db.SetDown(false)
	dst, err := sqlite.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	items, err := Sync(ctx, dst, home, nil)
	if err != nil || len(items) != 1 || items[0].Kind != KindJournal || items[0].Added != 2 {
		t.Fatalf("Sync = %+v, %v; want the journal's 2 events added", items, err)
	}
	if got := contentsOf(t, dst, f.ws.ID); strings.Join(got, ",") != strings.Join(want(0, 3), ",") {
		t.Fatalf("stored %v; want %v", got, want(0, 3))
	}
	if r, _ := dst.Run(ctx, f.run.ID); r.State != ledger.RunFinished || r.ExitCode == nil || *r.ExitCode != 3 {
		t.Fatalf("run after sync = %+v; want finished with 3", r)
	}
	if items, err := Sync(ctx, dst, home, nil); err != nil || len(items) != 0 {
		t.Fatalf("second Sync = %+v, %v; want nothing to do", items, err)
	}
}

// TestGuard_RetriesQuietly: with nothing more written, the retry loop
// notices the ledger is back and sends what was kept; one notice each way.
func TestGuard_RetriesQuietly(t *testing.T) {
	f := newRun(t, t.TempDir())
	defer f.g.Close()
	f.g.Retry = 10 * time.Millisecond
	f.db.SetDown(true)
	for i := 0; i < 5; i++ {
		f.append(t, i, 1)
	}
	time.Sleep(50 * time.Millisecond) // several failed retries
	f.db.SetDown(false)
	// The retry removes the journal, then says the ledger is back: wait
	// for both (under load the notice can come a moment after).
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := os.Stat(f.g.Journal())
		if os.IsNotExist(err) && strings.Contains(f.warn.String(), "reachable again") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the kept events were not sent after the ledger came back (journal: %v); notices:\n%s", err, f.warn)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := f.contents(t); len(got) != 5 {
		t.Fatalf("stored %v; want 5 events", got)
	}
	w := f.warn.String()
	if strings.Count(w, "ai-memory:") != 2 || !strings.Contains(w, "reachable again") {
		t.Fatalf("notices:\n%s\nwant exactly one outage and one recovery notice", w)
	}
}

// TestGuard_JournalIsRedactedAndPrivate: a secret never reaches the
// journal; the journal is 0600 in a 0700 directory; a torn last line (a
// crash mid-write) is ignored.
func TestGuard_JournalIsRedactedAndPrivate(t *testing.T) {
	f := newRun(t, t.TempDir())
	defer f.g.Close()
	f.db.SetDown(true)
	secret := "gh" + "p_" + strings.Repeat("q7Zp2XvN9k", 4)[:36]
	b := f.batch(0, 1)
	b.Events[0].Content = "token " + secret
	if _, err := f.g.Append(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(f.g.Journal())
	if err != nil || strings.Contains(string(raw), secret) {
		t.Fatalf("journal %q (%v) holds the secret", raw, err)
	}
	for path, mode := range map[string]os.FileMode{f.g.Journal(): 0o600, Dir(f.inner.Home()): 0o700 | os.ModeDir} {
		if st, err := os.Stat(path); err != nil || st.Mode() != mode {
			t.Errorf("%s: mode %v (%v); want %v", path, st.Mode(), err, mode)
		}
	}
	if err := os.WriteFile(f.g.Journal(), append(raw, []byte(`{"op":"app`)...), 0o600); err != nil {
		t.Fatal(err)
	}
	if recs, err := readJournal(f.g.Journal()); err != nil || len(recs) != 1 {
		t.Fatalf("journal with a torn last line = %d records, %v; want 1", len(recs), err)
	}
}

// TestSync_LeavesALiveLaunchersJournal: a journal whose launcher still runs
// on this machine is left to it; once the run ended (or its launcher is
// gone) Sync sends it.
func TestSync_LeavesALiveLaunchersJournal(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	inner, err := sqlite.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer inner.Close()
	ws, err := inner.SelectWorkstream(ctx, ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w"}, ledger.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	run, _, err := inner.AcquireLease(ctx, ws.ID, "claude", ledger.CurrentOwner()) // this test: alive
	if err != nil {
		t.Fatal(err)
	}
	f := &runFixture{ws: ws, run: run}
	rec, err := batchRecord(f.batch(0, 2))
	if err != nil {
		t.Fatal(err)
	}
	must(t, appendRecord(JournalPath(home, run.ID), rec))
	if items, err := Sync(ctx, inner, home, nil); err != nil || len(items) != 0 {
		t.Fatalf("Sync with the launcher alive = %+v, %v; want the journal left to it", items, err)
	}
	must(t, inner.FinishRun(ctx, run.ID, nil))
	if items, err := Sync(ctx, inner, home, nil); err != nil || len(items) != 1 || items[0].Added != 2 {
		t.Fatalf("Sync after the run ended = %+v, %v; want its 2 events", items, err)
	}
}

// TestGuard_HeartbeatOnlyOutage: an outage only the heartbeat saw gets
// its two notices and sends nothing.
func TestGuard_HeartbeatOnlyOutage(t *testing.T) {
	ctx := context.Background()
	f := newRun(t, t.TempDir())
	defer f.g.Close()
	f.db.SetDown(true)
	for i := 0; i < 3; i++ {
		if _, err := f.g.RenewLease(ctx, f.run.ID); err == nil {
			t.Fatal("renewal during the outage succeeded")
		}
	}
	f.db.SetDown(false)
	if _, err := f.g.RenewLease(ctx, f.run.ID); err != nil {
		t.Fatal(err)
	}
	w := f.warn.String()
	if strings.Count(w, "ai-memory:") != 2 || !strings.Contains(w, "the ledger is reachable again\n") {
		t.Fatalf("notices:\n%s\nwant one outage and one plain recovery notice", w)
	}
	if _, err := os.Stat(f.g.Journal()); !os.IsNotExist(err) {
		t.Fatalf("a journal was written for an outage with nothing to keep (%v)", err)
	}
}
