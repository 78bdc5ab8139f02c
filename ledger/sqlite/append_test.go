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

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
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

// fullFS fails every segment write with ENOSPC after writing part of it.
type fullFS struct{ durable.OSFS }

type fullFile struct{ *os.File }

func (f fullFile) Write(p []byte) (int, error) {
	n, _ := f.File.Write(p[:len(p)/2])
	return n, &fs.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

func (fullFS) CreateTemp(dir, pattern string) (durable.File, error) {
	f, err := os.CreateTemp(dir, pattern)
	return fullFile{f}, err
}

func TestAppend_DiskFullOnSegment(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	ws := mustWorkstream(t, db, "w")
	db.store.FS = fullFS{}
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
	db.store.FS = durable.OSFS{}
	if res := mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, RunID: "r", Events: msgs("s", 0, 3, "x")}); res.Added != 3 || res.LastSequence != 3 {
		t.Fatalf("retry after freeing space = %+v", res)
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

// TestAppend_SegmentKeepsFullRedactedContent: the ledger caps content, the
// segment (the durable copy Rebuild replays) keeps all of it, redacted.
func TestAppend_SegmentKeepsFullRedactedContent(t *testing.T) {
	db, _ := openTest(t)
	ws := mustWorkstream(t, db, "w")
	huge := strings.Repeat("é", ledger.MaxContentBytes)
	res := mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: []ledger.EventInput{
		{Harness: "claude", Kind: ledger.KindMessage, SourceRecordID: "big", Content: huge + " ghp_0123456789abcdefghij0123456789"}}})
	seg, err := durable.ReadSegmentFile(filepath.Join(db.Home(), res.SegmentPath))
	if err != nil || !strings.Contains(string(seg), redact.String(huge+" ghp_0123456789abcdefghij0123456789")) {
		t.Fatalf("segment lacks the full redacted content (%v)", err)
	}
}

// The segment row an append records under a placeholder while its segment
// is written ends up named by the segment's path; when a row with that path
// is already recorded (the same events appended again after their rows
// went), the events join it and no placeholder is left.
func TestAppend_SegmentRowNamed(t *testing.T) {
	db, _ := openTest(t)
	ws := mustWorkstream(t, db, "w")
	batch := ledger.Batch{WorkstreamID: ws.ID, RunID: "run-1", Events: msgs("s", 0, 40, "alpha beta")}
	segmentRows := func() (paths []string, eventsOnFirst int) {
		rows, err := db.sql.Query(`SELECT s.path, (SELECT COUNT(*) FROM events e WHERE e.segment_id = s.id) FROM segments s ORDER BY s.id`)
		must(t, err)
		defer rows.Close()
		for rows.Next() {
			var p string
			var n int
			must(t, rows.Scan(&p, &n))
			if paths = append(paths, p); len(paths) == 1 {
				eventsOnFirst = n
			}
		}
		return paths, eventsOnFirst
	}
	res := mustAppend(t, db, batch)
	if paths, n := segmentRows(); len(paths) != 1 || paths[0] != res.SegmentPath || n != 40 {
		t.Fatalf("after the append: segment rows %q (%d events on the first); want only %s with 40", paths, n, res.SegmentPath)
	}
	_, err := db.sql.Exec(`DELETE FROM events; UPDATE workstreams SET last_sequence = 0, event_count = 0`)
	must(t, err)
	again := mustAppend(t, db, batch)
	if paths, n := segmentRows(); again.Added != 40 || again.SegmentPath != res.SegmentPath || len(paths) != 1 || n != 40 {
		t.Fatalf("append again = %+v, segment rows %q (%d events on the first); want the 40 events on the one row %s",
			again, paths, n, res.SegmentPath)
	}
}
