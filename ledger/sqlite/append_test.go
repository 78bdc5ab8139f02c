package sqlite

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/redact"
)

// ftsState fingerprints the FTS index's storage so a test can prove an
// operation did not touch it.
func ftsState(t *testing.T, db *DB) string {
	t.Helper()
	var n, size int64
	must(t, db.sql.QueryRow(`SELECT COUNT(*), COALESCE(SUM(length(block)), 0) FROM events_fts_data`).Scan(&n, &size))
	return itoa64(n) + "/" + itoa64(size)
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

func segmentFiles(t *testing.T, db *DB) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(filepath.Join(db.Home(), "segments"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "state" {
			return filepath.SkipDir // workstream state snapshots, not event segments
		}
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func TestAppend_SequencesIdsAndReplay(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	ws := mustWorkstream(t, db, "w")
	batch := ledger.Batch{WorkstreamID: ws.ID, RunID: "run-1", Events: msgs("s", 0, 5, "alpha beta")}
	res := mustAppend(t, db, batch)
	if res.Added != 5 || res.LastSequence != 5 || res.SegmentPath == "" {
		t.Fatalf("first append = %+v", res)
	}
	before, segs := ftsState(t, db), segmentFiles(t, db)
	again := mustAppend(t, db, batch)
	if again.Added != 0 || again.Skipped != 5 || again.LastSequence != 5 {
		t.Fatalf("replay = %+v; want 0 added, 5 skipped", again)
	}
	if after := ftsState(t, db); after != before {
		t.Fatalf("replay touched the FTS index: %s -> %s", before, after)
	}
	if got := segmentFiles(t, db); len(got) != len(segs) {
		t.Fatalf("replay wrote a segment: %v", got)
	}
	// A batch mixing present and new events adds only the new ones.
	mixed := mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, RunID: "run-1", Events: msgs("s", 3, 4, "alpha beta")})
	if mixed.Added != 2 || mixed.Skipped != 2 || mixed.LastSequence != 7 {
		t.Fatalf("mixed = %+v", mixed)
	}
	evs, err := db.EventsInRange(ctx, ws.ID, 0, 100, 0)
	if err != nil || len(evs) != 7 {
		t.Fatalf("EventsInRange = %d, %v", len(evs), err)
	}
	for i, e := range evs {
		if e.Sequence != int64(i+1) || e.EventID != ledger.EventID(batch0(i)) || e.WorkstreamID != ws.ID {
			t.Fatalf("event %d = seq %d id %s", i, e.Sequence, e.EventID)
		}
	}
	if n, _ := db.CountEvents(ctx, ws.ID); n != 7 {
		t.Fatalf("CountEvents = %d", n)
	}
}

func batch0(i int) ledger.EventInput { return msgs("s", i, 1, "alpha beta")[0] }

func TestEventID(t *testing.T) {
	base := ledger.EventInput{Harness: "claude", NativeSessionID: "s", SourceRecordID: "r", BlockIndex: 1, Kind: ledger.KindMessage, Content: "c"}
	if ledger.EventID(base) != ledger.EventID(base) || len(ledger.EventID(base)) != 64 {
		t.Fatal("EventID is not a deterministic hex SHA-256")
	}
	variants := map[string]func(*ledger.EventInput){
		"harness": func(e *ledger.EventInput) { e.Harness = "codex" },
		"session": func(e *ledger.EventInput) { e.NativeSessionID = "t" },
		"record":  func(e *ledger.EventInput) { e.SourceRecordID = "q" },
		"block":   func(e *ledger.EventInput) { e.BlockIndex = 2 },
		"kind":    func(e *ledger.EventInput) { e.Kind = ledger.KindToolCall },
		"content": func(e *ledger.EventInput) { e.Content = "d" },
		"join":    func(e *ledger.EventInput) { e.NativeSessionID, e.SourceRecordID = "s\x00r", "" },
	}
	for name, mod := range variants {
		e := base
		mod(&e)
		if ledger.EventID(e) == ledger.EventID(base) {
			t.Errorf("changing %s does not change the id", name)
		}
	}
	e := base
	e.Role, e.Metadata = "assistant", map[string]any{"k": 1}
	if ledger.EventID(e) != ledger.EventID(base) {
		t.Error("role/metadata changed the id; they are not part of the identity")
	}
}

func TestAppend_DropsBlankCapsAndRedacts(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	ws := mustWorkstream(t, db, "w")
	huge := strings.Repeat("é", ledger.MaxContentBytes) // 2 bytes per rune: cut must be rune-safe
	in := []ledger.EventInput{
		{Harness: "claude", Kind: ledger.KindMessage, Content: "  \n\t "},
		{Harness: "claude", Kind: ledger.KindMessage, SourceRecordID: "big", Content: huge,
			Metadata: map[string]any{"token": "ghp_0123456789abcdefghij0123456789", "n": 3}},
		{Harness: "claude", Kind: ledger.KindMessage, SourceRecordID: "big", Content: huge}, // duplicate in batch
	}
	res := mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: in})
	if res.Added != 1 || res.Dropped != 1 || res.Skipped != 1 {
		t.Fatalf("append = %+v; want 1 added, 1 dropped, 1 skipped", res)
	}
	ev, ok, err := db.LatestEvent(ctx, ws.ID, ledger.KindMessage)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if len(ev.Content) > ledger.MaxContentBytes || !strings.HasSuffix(ev.Content, ledger.TruncationMarker) || !utf8.ValidString(ev.Content) {
		t.Fatalf("stored content: %d bytes, valid utf8 %v", len(ev.Content), utf8.ValidString(ev.Content))
	}
	if ev.EventID != ledger.EventID(in[1]) {
		t.Fatal("the id must hash the full redacted content, not the capped one")
	}
	if got, want := ev.Metadata["token"], redact.String("ghp_0123456789abcdefghij0123456789"); got != want || ev.Metadata["n"] != float64(3) {
		t.Fatalf("metadata = %v; want redacted token %q", ev.Metadata, want)
	}
	seg, err := ReadSegmentFile(filepath.Join(db.Home(), res.SegmentPath))
	if err != nil || !strings.Contains(string(seg), redact.String(huge)) {
		t.Fatalf("segment lacks the full redacted content (%v)", err)
	}
	if _, err := db.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, Events: []ledger.EventInput{{Harness: "claude", Kind: "bogus", Content: "x"}}}); err == nil {
		t.Fatal("an unknown kind was accepted")
	}
	if _, err := db.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, RunID: "../x", Events: msgs("s", 0, 1, "x")}); err == nil {
		t.Fatal("a run id with a path was accepted")
	}
}

// fullFS fails every segment write with ENOSPC after writing part of it.
type fullFS struct{ osFS }

type fullFile struct{ *os.File }

func (f fullFile) Write(p []byte) (int, error) {
	n, _ := f.File.Write(p[:len(p)/2])
	return n, &fs.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

func (fullFS) CreateTemp(dir, pattern string) (segmentFile, error) {
	f, err := os.CreateTemp(dir, pattern)
	return fullFile{f}, err
}

func TestAppend_DiskFullOnSegment(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	ws := mustWorkstream(t, db, "w")
	db.segFS = fullFS{}
	before := ftsState(t, db)
	_, err := db.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, RunID: "r", Events: msgs("s", 0, 3, "x")})
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "free disk space") {
		t.Fatalf("Append on a full disk = %v; want ENOSPC with a hint", err)
	}
	if n, _ := db.CountEvents(ctx, ws.ID); n != 0 {
		t.Fatalf("%d events stored after a failed segment write", n)
	}
	var rows int
	must(t, db.sql.QueryRow(`SELECT COUNT(*) FROM events`).Scan(&rows))
	if rows != 0 || ftsState(t, db) != before {
		t.Fatalf("half-written state: %d rows, fts %s", rows, ftsState(t, db))
	}
	if files := segmentFiles(t, db); len(files) != 0 {
		t.Fatalf("files left behind: %v", files)
	}
	db.segFS = osFS{}
	if res := mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, RunID: "r", Events: msgs("s", 0, 3, "x")}); res.Added != 3 || res.LastSequence != 3 {
		t.Fatalf("retry after freeing space = %+v", res)
	}
}

func TestEventsInRange_NewestLimitOldestFirst(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	ws := mustWorkstream(t, db, "w")
	mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: msgs("s", 0, 10, "e")})
	tests := []struct {
		after, through int64
		limit          int
		want           []int64
	}{
		{0, 10, 3, []int64{8, 9, 10}},
		{2, 6, 0, []int64{3, 4, 5, 6}},
		{5, 5, 10, nil},
		{7, 100, 10, []int64{8, 9, 10}},
	}
	for _, tt := range tests {
		evs, err := db.EventsInRange(ctx, ws.ID, tt.after, tt.through, tt.limit)
		must(t, err)
		var got []int64
		for _, e := range evs {
			got = append(got, e.Sequence)
		}
		if !equalInts(got, tt.want) {
			t.Errorf("EventsInRange(%d, %d, %d) = %v; want %v", tt.after, tt.through, tt.limit, got, tt.want)
		}
	}
	if seq, _ := db.LatestSequence(ctx, ws.ID); seq != 10 {
		t.Fatalf("LatestSequence = %d", seq)
	}
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
