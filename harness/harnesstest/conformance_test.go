package harnesstest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/transcript"
	"github.com/google/uuid"
)

// TestSourceConformance runs the checks every registered transcript source
// must pass, over a store its harness's fake wrote with the real layout and
// record shapes: discovery by checkout, find by id with three answers,
// import from zero, resume from a cursor after a partial write, rewrite
// detection, losses, idempotent replay, progress and settling, and a store
// left untouched by every read.
func TestSourceConformance(t *testing.T) {
	for _, d := range harness.All() {
		fake, ok := FakeFor(d.Name)
		if !ok {
			t.Errorf("%s has no fake in harnesstest (add one to the fakes list)", d.Name)
			continue
		}
		checks, own := storeChecks[d.Name]
		if !own {
			checks = jsonlChecks
		}
		t.Run(d.Name, func(t *testing.T) {
			t.Run("Discovery", func(t *testing.T) { conformDiscovery(t, d.Source, fake) })
			t.Run("Existence", func(t *testing.T) { conformExistence(t, d.Source, fake) })
			t.Run("BatchesKept", func(t *testing.T) { conformBatchesKept(t, d.Source, fake) })
			t.Run("PartialWriteResume", func(t *testing.T) { checks.partial(t, d.Source, fake) })
			t.Run("RewriteAndLosses", func(t *testing.T) { checks.rewrite(t, d.Source, fake) })
			t.Run("PiecewiseEqualsOnePass", func(t *testing.T) { checks.pieces(t, d.Source, fake) })
		})
	}
}

// storeLayoutChecks are the checks that write into a store the way its
// writer could have left it (a half-written record, a rewritten or
// shrunk history, a malformed record), so they depend on the store's
// layout: one JSONL file per session unless a harness's own test file
// registers checks for its layout in storeChecks.
type storeLayoutChecks struct {
	partial, rewrite, pieces func(*testing.T, transcript.Source, Fake)
}

var (
	jsonlChecks = storeLayoutChecks{partial: conformPartial, rewrite: conformRewrite, pieces: conformPieces}
	storeChecks = map[string]storeLayoutChecks{}
	// journals locates the JSONL file a session is imported from when it
	// is not Session.Path (a harness's own test file registers it).
	journals = map[string]func(transcript.Session) string{}
	// resumeOpts is the option that resumes a session by id, for a
	// harness whose first turn of a session yields too little to check:
	// session then adds two turns to it.
	resumeOpts = map[string]string{}
)

// journal is the JSONL file session s of fake's harness is imported from.
func journal(fake Fake, s transcript.Session) string {
	if j, ok := journals[fake.Harness]; ok {
		return j(s)
	}
	return s.Path
}

// session runs one print turn of the fake in f's checkout and returns the
// session its source finds there.
func (f *fakeEnv) session(src transcript.Source, fake Fake, prompt string) transcript.Session {
	f.t.Helper()
	resume, more := resumeOpts[fake.Harness]
	partial := f.env["FAKE_PARTIAL"]
	if more {
		delete(f.env, "FAKE_PARTIAL") // only the last turn is cut
	}
	turn := func(args ...string) transcript.Session {
		f.t.Helper()
		if res := f.run(fake.run, "", false, append([]string{fake.Print}, args...)...); res.code != 0 {
			f.t.Fatalf("fake %s: %+v", fake.Harness, res)
		}
		ss, err := src.List(f.tenv(), f.cwd, 0)
		if err != nil || len(ss) == 0 {
			f.t.Fatalf("List after a run: %v, %v", ss, err)
		}
		return ss[0]
	}
	s := turn(prompt)
	if more {
		s = turn(prompt+" again", resume, s.ID)
		if partial != "" {
			f.env["FAKE_PARTIAL"] = partial
		}
		s = turn("and "+prompt, resume, s.ID)
	}
	return s
}

func (f *fakeEnv) tenv() transcript.Env {
	return transcript.Env{Home: f.home, Getenv: func(k string) string { return f.env[k] }}
}

func conformDiscovery(t *testing.T, src transcript.Source, fake Fake) {
	f := newFakeEnv(t)
	other := filepath.Join(f.home, "work", "other")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	before := treeSum(t, src.StoreRoot(f.tenv()))
	if ss, err := src.List(f.tenv(), f.cwd, 0); err != nil || len(ss) != 0 {
		t.Fatalf("empty store: List = %v, %v; want nothing, no error", ss, err)
	}
	if before != "" {
		t.Fatal("the store exists before the first run")
	}
	s := f.session(src, fake, "first")
	if s.Harness != src.Harness() || s.ID == "" || s.Size <= 0 {
		t.Errorf("session %+v: want harness, id and size", s)
	}
	if ss, _ := src.List(f.tenv(), other, 0); len(ss) != 0 {
		t.Errorf("another checkout lists %v", ss)
	}
	since, _ := src.CreatedSince(f.tenv(), f.cwd, s.ModTime)
	if len(since) != 1 || since[0].ID != s.ID {
		t.Errorf("CreatedSince = %v, want the session", since)
	}
	if roots := src.WatchRoots(f.tenv(), f.cwd); len(roots) == 0 || !under(s.Path, roots) {
		t.Errorf("WatchRoots %v do not cover %s", roots, s.Path)
	}
}

func under(path string, roots []string) bool {
	for _, r := range roots {
		if strings.HasPrefix(path, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

func conformExistence(t *testing.T, src transcript.Source, fake Fake) {
	f := newFakeEnv(t)
	if _, ex, err := src.Find(f.tenv(), uuid.NewString()); ex != transcript.Absent || err != nil {
		t.Errorf("missing store: %v, %v; want absent", ex, err)
	}
	s := f.session(src, fake, "hello")
	got, ex, err := src.Find(f.tenv(), s.ID)
	if ex != transcript.Present || err != nil || got.Path != s.Path || got.ID != s.ID {
		t.Errorf("Find(own id) = %+v, %v, %v; want present at %s", got, ex, err, s.Path)
	}
	for _, id := range []string{uuid.NewString(), "../" + s.ID, ""} {
		if _, ex, err := src.Find(f.tenv(), id); ex != transcript.Absent || err != nil {
			t.Errorf("Find(%q) = %v, %v; want absent", id, ex, err)
		}
	}
	// An unreadable store: the directory under the root replaced by a file.
	blockStore(t, src.StoreRoot(f.tenv()), s.Path)
	if _, ex, err := src.Find(f.tenv(), uuid.NewString()); ex != transcript.Unknown || err == nil {
		t.Errorf("unreadable store: %v, %v; want unknown with an error", ex, err)
	}
}

// blockStore replaces the top-level store directory holding path with a
// regular file, so lookups fail with an error other than "does not exist".
// A session kept outside the root (a per-project database found through an
// index in the root) blocks the root itself.
func blockStore(t *testing.T, root, path string) {
	t.Helper()
	rel, err := filepath.Rel(root, path)
	if err != nil {
		t.Fatal(err)
	}
	top := filepath.Join(root, strings.Split(rel, string(filepath.Separator))[0])
	if !under(path, []string{root}) {
		top = root
	}
	if err := os.Rename(top, top+".saved"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(top, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// read imports s from c and returns the event keys, the losses and the
// cursor after the last batch (c when nothing was read).
func read(t *testing.T, src transcript.Source, s transcript.Session, c transcript.Cursor) ([]string, []string, transcript.Cursor) {
	t.Helper()
	var keys, losses []string
	err := src.Read(context.Background(), s, c, transcript.ReadOptions{BatchEvents: 2}, func(b transcript.Batch) error {
		for _, e := range b.Events {
			keys = append(keys, e.RecordID+"/"+e.Kind+"/"+e.Content)
		}
		for _, l := range b.Losses {
			losses = append(losses, l.Reason)
		}
		c = b.Cursor
		return nil
	})
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return keys, losses, c
}

// eventKey is everything of an event the ledger stores or orders by.
func eventKey(e transcript.Event) string {
	return fmt.Sprintf("%s/%d/%s/%s/%q/%s/%v/%v", e.RecordID, e.BlockIndex, e.Kind, e.Role, e.Content,
		e.OccurredAt.Format(time.RFC3339Nano), e.Metadata, e.ByTime)
}

// readAll imports s from c and returns its events (eventKey) in the order
// the source emitted them, and the cursor after the last batch.
func readAll(t *testing.T, src transcript.Source, s transcript.Session, c transcript.Cursor) ([]string, transcript.Cursor) {
	t.Helper()
	var keys []string
	err := src.Read(context.Background(), s, c, transcript.ReadOptions{BatchEvents: 3}, func(b transcript.Batch) error {
		for _, e := range b.Events {
			keys = append(keys, eventKey(e))
		}
		c = b.Cursor
		return nil
	})
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return keys, c
}

// conformBatchesKept: a batch belongs to emit (transcript.Source.Read): the
// source never changes one after handing it over, so an importer may keep
// it, or write it on another goroutine, while the next ones are read.
func conformBatchesKept(t *testing.T, src transcript.Source, fake Fake) {
	f := newFakeEnv(t)
	s := f.session(src, fake, "kept turn RUN_TOOL")
	var kept []transcript.Batch
	var seen [][]string
	err := src.Read(context.Background(), s, "", transcript.ReadOptions{BatchEvents: 1}, func(b transcript.Batch) error {
		kept = append(kept, b)
		seen = append(seen, batchKeys(b))
		return nil
	})
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if len(kept) < 2 {
		t.Fatalf("%d batches of one event; the turn should give several", len(kept))
	}
	for i, b := range kept {
		if got := batchKeys(b); strings.Join(got, "\n") != strings.Join(seen[i], "\n") {
			t.Fatalf("batch %d changed after emit returned:\n%s\nwas:\n%s", i, strings.Join(got, "\n"), strings.Join(seen[i], "\n"))
		}
	}
}

// batchKeys is everything of a batch an importer uses.
func batchKeys(b transcript.Batch) []string {
	keys := []string{"cursor " + string(b.Cursor)}
	for _, e := range b.Events {
		keys = append(keys, eventKey(e))
	}
	for _, l := range b.Losses {
		keys = append(keys, fmt.Sprintf("loss %d %s", l.Offset, l.Reason))
	}
	return keys
}

// conformPieces: a session read while its writer appends it in small pieces
// (cut anywhere, as live import sees it) yields exactly the events, in
// exactly the order, of one read of the whole file; the ledger's
// conversation order depends on that order (docs/ledger.md, "Order").
func conformPieces(t *testing.T, src transcript.Source, fake Fake) {
	conformPiecesWith(t, src, fake, func(keys []string) []string { return keys })
}

// firstOccurrences keeps the first event of each id, in order: what the
// ledger stores of a source that re-emits a superseded record under the
// same id (its inserts are idempotent by id).
func firstOccurrences(keys []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range keys {
		id := eventIDPart(k)
		if !seen[id] {
			seen[id] = true
			out = append(out, k)
		}
	}
	return out
}

// eventIDPart is the part of a key that identifies the event (record id,
// block index and kind), without its content.
func eventIDPart(key string) string {
	parts := strings.SplitN(key, "/", 4)
	return strings.Join(parts[:min(3, len(parts))], "/")
}

// conformPiecesWith is conformPieces comparing the events after view, the
// view of a stream the ledger would store.
func conformPiecesWith(t *testing.T, src transcript.Source, fake Fake, view func([]string) []string) {
	f := newFakeEnv(t)
	s := f.session(src, fake, "pieces turn RUN_TOOL")
	path := journal(fake, s)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	one, _ := readAll(t, src, s, "")
	if len(one) < 3 {
		t.Fatalf("one read: %d events; the turn should give several", len(one))
	}
	for _, step := range []int{1 << 30, 97, 13} {
		var got []string
		var c transcript.Cursor
		for n := 0; n < len(data); {
			n = min(n+step, len(data))
			writeAt(t, path, data[:n])
			cs, _ := src.Refresh(s)
			keys, next := readAll(t, src, cs, c)
			got, c = append(got, keys...), next
		}
		if got, one := view(got), view(one); strings.Join(got, "\n") != strings.Join(one, "\n") {
			t.Fatalf("appended %d bytes at a time: events\n%s\nwant, as one read:\n%s", step, strings.Join(got, "\n"), strings.Join(one, "\n"))
		}
	}
}

func conformPartial(t *testing.T, src transcript.Source, fake Fake) {
	conformPartialWith(t, src, fake, sameKeys)
}

// conformPartialWith is conformPartial comparing the events of a cut and
// resumed read with those of one read by same.
func conformPartialWith(t *testing.T, src transcript.Source, fake Fake, same func(a, b []string) bool) {
	f := newFakeEnv(t)
	f.env["FAKE_PARTIAL"] = "1"
	s := f.session(src, fake, "partial turn RUN_TOOL")
	root := src.StoreRoot(f.tenv())
	sum := treeSum(t, root)
	_, _, c1 := read(t, src, s, "")
	if done, total := src.Progress(s, c1); done <= 0 || done >= total {
		t.Errorf("progress %d of %d: the unterminated last line must not count", done, total)
	}
	if treeSum(t, root) != sum {
		t.Fatal("reading changed the store")
	}
	r1, ok := src.Refresh(s)
	if r2, _ := src.Refresh(s); !ok || !src.Settled(r1, r2) {
		t.Error("an unchanged session has not settled")
	}
	appendTo(t, journal(fake, s), "\n") // the writer finishes its line
	full, _ := src.Refresh(s)
	if src.Settled(r1, full) {
		t.Error("a session that grew counts as settled")
	}
	all, _, end := read(t, src, full, "")
	if again, l, _ := read(t, src, full, end); len(again)+len(l) != 0 {
		t.Errorf("replay from the final cursor imported %d events, %v", len(again), l)
	}
	if done, total := src.Progress(full, end); done != total {
		t.Errorf("final progress %d of %d", done, total)
	}
	// Cut the file in the middle of every line in turn: an import of the
	// cut file, then a resume from its cursor once the file is whole again,
	// must import exactly what one read of the whole file does.
	path := journal(fake, full)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for start := 0; start < len(data); {
		nl := strings.IndexByte(string(data[start:]), '\n')
		cut := start + (nl+1)/2
		writeAt(t, path, data[:cut])
		cs, _ := src.Refresh(full)
		head, _, c := read(t, src, cs, "")
		writeAt(t, path, data)
		whole, _ := src.Refresh(full)
		tail, _, _ := read(t, src, whole, c)
		if got := append(head, tail...); !same(got, all) {
			t.Fatalf("cut at byte %d: %d + %d events, want the %d of one read", cut, len(head), len(tail), len(all))
		}
		start += nl + 1
	}
}

// writeAt replaces the file at path with data in place (same inode), as an
// appending writer seen at an earlier moment.
func writeAt(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func conformRewrite(t *testing.T, src transcript.Source, fake Fake) {
	f := newFakeEnv(t)
	s := f.session(src, fake, "to be rewritten")
	_, _, end := read(t, src, s, "")
	path := journal(fake, s)
	appendTo(t, path, "{not json\n")
	s, _ = src.Refresh(s)
	_, losses, end2 := read(t, src, s, end)
	if len(losses) != 1 || !strings.Contains(losses[0], "malformed") {
		t.Errorf("malformed line: losses %v, want one", losses)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Same size, different bytes before the cursor: a rewrite the prefix
	// hash must catch (the first record blanked out).
	nl := strings.IndexByte(string(data), '\n')
	same := append([]byte(strings.Repeat(" ", nl)), data[nl:]...)
	writeAt(t, path, same)
	s, _ = src.Refresh(s)
	if _, losses, _ := read(t, src, s, end2); !strings.Contains(strings.Join(losses, "\n"), "rewritten") {
		t.Errorf("rewritten prefix: losses %v, want the rewrite noted", losses)
	}
	firstLine := data[:nl+1]
	if err := os.WriteFile(path, firstLine, 0o600); err != nil { // shrink: a rewrite
		t.Fatal(err)
	}
	s, _ = src.Refresh(s)
	_, losses, _ = read(t, src, s, end2)
	if len(losses) == 0 || !strings.Contains(strings.Join(losses, "\n"), "rewritten") {
		t.Errorf("shrunk file: losses %v, want the rewrite noted", losses)
	}
	if _, _, c := read(t, src, s, "not a cursor of this source"); c == "not a cursor of this source" {
		t.Error("an unusable cursor was not replaced by a read from the start")
	}
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func sameKeys(a, b []string) bool {
	a, b = append([]string(nil), a...), append([]string(nil), b...)
	sort.Strings(a)
	sort.Strings(b)
	return strings.Join(a, "\x00") == strings.Join(b, "\x00")
}

// treeSum hashes the names, modes and contents of every file under root
// ("" when root does not exist).
func treeSum(t *testing.T, root string) string {
	t.Helper()
	if _, err := os.Stat(root); err != nil {
		return ""
	}
	h := sha256.New()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		h.Write([]byte(p + fi.Mode().String() + fi.ModTime().String()))
		if d.Type().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}
