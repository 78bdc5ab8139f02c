package harnesstest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/transcript"
)

// Crush's store is one SQLite database per project, so the layout checks
// write rows: an assistant message without its finish part stands for a
// half-written record, a malformed parts column for a bad record, deleted
// messages for a shrink. The database lives in the checkout, so the
// untouched-store check sums its directory, not the store root.
func init() {
	storeChecks["crush"] = storeLayoutChecks{partial: crushPartial, rewrite: crushRewrite, pieces: crushPieces}
}

func crushPartial(t *testing.T, src transcript.Source, fake Fake) {
	f := newFakeEnv(t)
	f.env["FAKE_PARTIAL"] = "1"
	s := f.session(src, fake, "partial turn RUN_TOOL")
	dir := filepath.Dir(s.Path)
	sum := treeSum(t, dir)
	head, _, c1 := read(t, src, s, "")
	if done, total := src.Progress(s, c1); done <= 0 || done >= total {
		t.Errorf("progress %d of %d: the unfinished reply must not count", done, total)
	}
	if treeSum(t, dir) != sum {
		t.Fatal("reading changed the store")
	}
	r1, ok := src.Refresh(s)
	if r2, _ := src.Refresh(s); !ok || !src.Settled(r1, r2) {
		t.Error("an unchanged session has not settled")
	}
	// The writer finishes the streaming reply: a finish part and finished_at.
	db := opencodeWriterDB(t, s.Path)
	execSQL(t, db, `UPDATE messages SET parts = json_insert(parts, '$[#]', json('{"type":"finish","data":{"reason":"end_turn","time":1}}')),
		finished_at = updated_at WHERE role = 'assistant' AND finished_at IS NULL`)
	db.Close()
	full, _ := src.Refresh(s)
	if src.Settled(r1, full) {
		t.Error("a session whose reply was finished counts as settled")
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

func crushRewrite(t *testing.T, src transcript.Source, fake Fake) {
	f := newFakeEnv(t)
	s := f.session(src, fake, "to be rewritten")
	_, _, end := read(t, src, s, "")
	db := opencodeWriterDB(t, s.Path)
	execSQL(t, db, `INSERT INTO messages (id, session_id, role, parts, created_at, updated_at)
		VALUES ('bad-message', ?, 'user', '{not json', 1, 1)`, s.ID)
	s, _ = src.Refresh(s)
	_, losses, end2 := read(t, src, s, end)
	if len(losses) != 1 || !strings.Contains(losses[0], "malformed") {
		t.Errorf("malformed message: losses %v, want one", losses)
	}
	// Shrunk: messages deleted. Nothing new, no error, and a read from the
	// start sees only what is left.
	execSQL(t, db, `DELETE FROM messages WHERE session_id = ? AND role != 'user'`, s.ID)
	db.Close()
	s, _ = src.Refresh(s)
	if keys, _, _ := read(t, src, s, end2); len(keys) != 0 {
		t.Errorf("after messages were deleted: %v", keys)
	}
	if keys, _, _ := read(t, src, s, ""); len(keys) != 1 {
		t.Errorf("read from the start after the shrink: %v, want the prompt", keys)
	}
	if _, _, c := read(t, src, s, "not a cursor of this source"); c == "not a cursor of this source" {
		t.Error("an unusable cursor was not replaced by a read from the start")
	}
}

// crushPieces appends a session's messages one at a time (with their
// rowids, which is the order Crush's reader follows) and reads after each,
// resuming from the previous cursor: the events must equal one read of the
// whole session.
func crushPieces(t *testing.T, src transcript.Source, fake Fake) {
	f := newFakeEnv(t)
	s := f.session(src, fake, "pieces turn RUN_TOOL")
	one, _ := readAll(t, src, s, "")
	if len(one) < 3 {
		t.Fatalf("one read: %d events; the turn should give several", len(one))
	}
	db := opencodeWriterDB(t, s.Path)
	rows, err := db.Query(`SELECT rowid, * FROM messages WHERE session_id = ? ORDER BY rowid`, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := rows.Columns()
	var msgs [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, vals)
	}
	rows.Close()
	execSQL(t, db, `DELETE FROM messages WHERE session_id = ?`, s.ID)
	names := append([]string{"rowid"}, cols[1:]...)
	insert := `INSERT INTO messages (` + strings.Join(names, ", ") + `) VALUES (?` + strings.Repeat(", ?", len(names)-1) + `)`
	var got []string
	var c transcript.Cursor
	for _, m := range msgs {
		execSQL(t, db, insert, m...)
		cs, _ := src.Refresh(s)
		keys, next := readAll(t, src, cs, c)
		got, c = append(got, keys...), next
	}
	db.Close()
	if strings.Join(got, "\n") != strings.Join(one, "\n") {
		t.Fatalf("one message at a time: events\n%s\nwant, as one read:\n%s", strings.Join(got, "\n"), strings.Join(one, "\n"))
	}
}
