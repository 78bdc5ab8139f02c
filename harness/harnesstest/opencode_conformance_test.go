package harnesstest

import (
	"database/sql"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/transcript"
)

// OpenCode's store is one SQLite database, so the layout checks of the
// conformance suite write rows, not lines: an unfinished part stands for a
// half-written record, a part rewritten with a newer time_updated for a
// rewrite, deleted parts for a shrink.
func init() {
	storeChecks["opencode"] = storeLayoutChecks{partial: opencodePartial, rewrite: opencodeRewrite}
}

// opencodeWriterDB opens the store read-write in WAL mode, as OpenCode does.
func opencodeWriterDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: filepath.ToSlash(path)}).EscapedPath()+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func execSQL(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func opencodePartial(t *testing.T, src transcript.Source, fake Fake) {
	f := newFakeEnv(t)
	f.env["FAKE_PARTIAL"] = "1"
	s := f.session(src, fake, "partial turn RUN_TOOL")
	root := src.StoreRoot(f.tenv())
	sum := treeSum(t, root)
	head, _, c1 := read(t, src, s, "")
	if done, total := src.Progress(s, c1); done <= 0 || done >= total {
		t.Errorf("progress %d of %d: the unfinished reply must not count", done, total)
	}
	if treeSum(t, root) != sum {
		t.Fatal("reading changed the store")
	}
	r1, ok := src.Refresh(s)
	if r2, _ := src.Refresh(s); !ok || !src.Settled(r1, r2) {
		t.Error("an unchanged session has not settled")
	}
	// The writer finishes the streaming text part: a newer time_updated.
	db := opencodeWriterDB(t, s.Path)
	execSQL(t, db, `UPDATE part SET time_updated = time_updated + 5,
		data = json_set(data, '$.time.end', time_updated + 5) WHERE json_extract(data, '$.type') = 'text'
		AND json_extract(data, '$.time.end') IS NULL AND json_extract(data, '$.time.start') IS NOT NULL`)
	db.Close()
	full, _ := src.Refresh(s)
	if src.Settled(r1, full) {
		t.Error("a session whose part was rewritten counts as settled")
	}
	all, _, end := read(t, src, full, "")
	if again, l, _ := read(t, src, full, end); len(again)+len(l) != 0 {
		t.Errorf("replay from the final cursor imported %d events, %v", len(again), l)
	}
	if done, total := src.Progress(full, end); done != total {
		t.Errorf("final progress %d of %d", done, total)
	}
	tail, _, _ := read(t, src, full, c1)
	if got := append(head, tail...); !sameKeys(got, all) {
		t.Fatalf("resume after the partial write: %d + %d events, want the %d of one read", len(head), len(tail), len(all))
	}
}

func opencodeRewrite(t *testing.T, src transcript.Source, fake Fake) {
	f := newFakeEnv(t)
	s := f.session(src, fake, "to be rewritten")
	_, _, end := read(t, src, s, "")
	db := opencodeWriterDB(t, s.Path)
	execSQL(t, db, `INSERT INTO part SELECT 'prt_zzzzzzzzzzzz', message_id, session_id, time_created,
		time_updated + 10, '{not json' FROM part WHERE session_id = ? ORDER BY id DESC LIMIT 1`, s.ID)
	s, _ = src.Refresh(s)
	_, losses, end2 := read(t, src, s, end)
	if len(losses) != 1 || !strings.Contains(losses[0], "malformed") {
		t.Errorf("malformed part: losses %v, want one", losses)
	}
	// A part rewritten in place (text edited, newer time_updated) is read
	// again with its new content. (The malformed row goes first: SQLite's
	// JSON functions fail on it.)
	execSQL(t, db, `DELETE FROM part WHERE id = 'prt_zzzzzzzzzzzz'`)
	// OpenCode stamps a rewritten part with the time of the rewrite, so it is
	// newer than every part read so far (the fake's parts may be spread over
	// more than a few milliseconds on a loaded machine).
	execSQL(t, db, `UPDATE part SET time_updated = (SELECT MAX(time_updated) FROM part WHERE session_id = ?1) + 20,
		data = json_set(data, '$.text', 'EDITED') WHERE session_id = ?1 AND json_extract(data, '$.type') = 'text'
		AND id = (SELECT MIN(id) FROM part WHERE session_id = ?1 AND json_extract(data, '$.type') = 'text')`, s.ID)
	s, _ = src.Refresh(s)
	if keys, _, _ := read(t, src, s, end2); len(keys) != 1 || !strings.HasSuffix(keys[0], "/EDITED") {
		t.Errorf("rewritten part: read %v, want it once with its new text", keys)
	}
	// Shrunk: parts deleted. Nothing new, no error, and a read from the
	// start sees only what is left.
	execSQL(t, db, `DELETE FROM part WHERE session_id = ? AND json_extract(data, '$.type') != 'text'`, s.ID)
	db.Close()
	s, _ = src.Refresh(s)
	if keys, _, _ := read(t, src, s, end2); len(keys) != 1 {
		t.Errorf("after parts were deleted: %v", keys)
	}
	if _, _, c := read(t, src, s, "not a cursor of this source"); c == "not a cursor of this source" {
		t.Error("an unusable cursor was not replaced by a read from the start")
	}
}
