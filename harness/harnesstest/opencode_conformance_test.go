package harnesstest

import (
	"database/sql"
	"errors"
	"io/fs"
	"net/url"
	"os"
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
	storeChecks["opencode"] = storeLayoutChecks{partial: opencodePartial, rewrite: opencodeRewrite, pieces: opencodePieces}
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
	// The writer finishes the streaming text part, stamped with the time of
	// the write: newer than every part so far (on a loaded machine the
	// fake's later parts may be several milliseconds newer than this one).
	db := opencodeWriterDB(t, s.Path)
	execSQL(t, db, `UPDATE part SET time_updated = (SELECT MAX(time_updated) FROM part WHERE session_id = ?1) + 5,
		data = json_set(data, '$.time.end', (SELECT MAX(time_updated) FROM part WHERE session_id = ?1) + 5)
		WHERE session_id = ?1 AND json_extract(data, '$.type') = 'text'
		AND json_extract(data, '$.time.end') IS NULL AND json_extract(data, '$.time.start') IS NOT NULL`, s.ID)
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

// opencodePieces is conformPieces for the database: the store as its
// writer left it after each part, oldest update first (a copy with the
// later parts deleted), read from the cursor of the previous state, must
// yield the events, in the order, of one read of the finished store.
func opencodePieces(t *testing.T, src transcript.Source, fake Fake) {
	f := newFakeEnv(t)
	s := f.session(src, fake, "pieces turn RUN_TOOL")
	one, _ := readAll(t, src, s, "")
	if len(one) < 3 {
		t.Fatalf("one read: %d events; the turn should give several", len(one))
	}
	snap := filepath.Join(t.TempDir(), "full.db")
	db := opencodeWriterDB(t, s.Path)
	execSQL(t, db, `VACUUM INTO ?`, snap)
	var ids []string
	rows, err := db.Query(`SELECT id FROM part WHERE session_id = ? ORDER BY time_updated, id`, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	db.Close()
	var got []string
	var c transcript.Cursor
	for k := 1; k <= len(ids); k++ {
		opencodeRestore(t, snap, s.Path)
		w := opencodeWriterDB(t, s.Path)
		for _, id := range ids[k:] {
			execSQL(t, w, `DELETE FROM part WHERE id = ?`, id)
		}
		w.Close()
		cs, _ := src.Refresh(s)
		keys, next := readAll(t, src, cs, c)
		got, c = append(got, keys...), next
	}
	if strings.Join(got, "\n") != strings.Join(one, "\n") {
		t.Fatalf("one part at a time: events\n%s\nwant, as one read:\n%s", strings.Join(got, "\n"), strings.Join(one, "\n"))
	}
}

// opencodeRestore puts the snapshot back as the store (no WAL left over).
func opencodeRestore(t *testing.T, snap, path string) {
	t.Helper()
	data, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
