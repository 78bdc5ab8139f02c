package sessionindex

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// bigLimit keeps eviction out of the way of the record counting below.
const bigLimit = `{"sessions": [], "history_limit": 100000}`

func TestConcurrentGoroutineWriters(t *testing.T) {
	root := t.TempDir()
	writeIndex(t, root, bigLimit)
	const workers, each = 12, 6
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &Store{Root: root} // one Store per writer, as separate commands would have
			for i := 0; i < each; i++ {
				if _, err := s.Start(StartOptions{Runtime: "codex", NativeID: fmt.Sprintf("g%d-%d", w, i)}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	assertNatives(t, root, workers*each, func(i int) string { return fmt.Sprintf("g%d-%d", i/each, i%each) })
}

// assertNatives checks that the index parses, has exactly n records with
// unique ids, and holds every native id name(0..n-1).
func assertNatives(t *testing.T, root string, n int, name func(int) string) {
	t.Helper()
	ix := mustLoad(t, &Store{Root: root})
	if len(ix.Sessions) != n {
		t.Fatalf("%d records, want %d", len(ix.Sessions), n)
	}
	seenID, seenNative := map[string]bool{}, map[string]bool{}
	for _, r := range ix.Sessions {
		if seenID[r.ID] {
			t.Fatalf("duplicate id %s", r.ID)
		}
		seenID[r.ID], seenNative[r.NativeSessionID] = true, true
	}
	for i := 0; i < n; i++ {
		if !seenNative[name(i)] {
			t.Fatalf("record with native id %s lost", name(i))
		}
	}
}

// TestWriterProcess is the body of a child process started by
// TestConcurrentProcessWriters; it does nothing in a normal run.
func TestWriterProcess(t *testing.T) {
	root := os.Getenv("SESSIONINDEX_TEST_ROOT")
	if root == "" {
		t.Skip("helper process only")
	}
	n, _ := strconv.Atoi(os.Getenv("SESSIONINDEX_TEST_N"))
	tag := os.Getenv("SESSIONINDEX_TEST_TAG")
	s := &Store{Root: root}
	for i := 0; i < n; i++ {
		if _, err := s.Start(StartOptions{Runtime: "claude", NativeID: fmt.Sprintf("%s-%d", tag, i)}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestConcurrentProcessWriters(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	root := t.TempDir()
	writeIndex(t, root, bigLimit)
	const procs, each = 4, 8
	cmds := make([]*exec.Cmd, procs)
	for p := range cmds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriterProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), "SESSIONINDEX_TEST_ROOT="+root,
			"SESSIONINDEX_TEST_N="+strconv.Itoa(each), fmt.Sprintf("SESSIONINDEX_TEST_TAG=p%d", p))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[p] = cmd
	}
	s := &Store{Root: root} // and this process writes at the same time
	for i := 0; i < each; i++ {
		if _, err := s.Start(StartOptions{Runtime: "claude", NativeID: fmt.Sprintf("p%d-%d", procs, i)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer process: %v", err)
		}
	}
	assertNatives(t, root, (procs+1)*each, func(i int) string { return fmt.Sprintf("p%d-%d", i/each, i%each) })
}

// foreignWrite is what a lock-ignoring tool does: read, append one record
// with its own extra key, write a temp file and rename it over the index.
func foreignWrite(root, native string) error {
	path := Path(root)
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("foreign writer read a corrupt file: %w", err)
	}
	sessions, _ := doc["sessions"].([]any)
	doc["sessions"] = append(sessions, map[string]any{
		"id": "foreign-" + native, "runtime": "opencode", "native_session_id": native,
		"started": "2026-08-04T00:00:00Z", "ended": "2026-08-04T00:00:01Z", "status": "ended", "by": "foreign",
	})
	out, _ := json.MarshalIndent(doc, "", "  ")
	tmp := filepath.Join(filepath.Dir(path), "foreign.tmp-"+native)
	if err := os.WriteFile(tmp, out, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func TestCommitRetriesWhenFileChangedUnderneath(t *testing.T) {
	s, _, _ := newStore(t)
	mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "A"})
	calls := 0
	s.beforeCommit = func() {
		calls++
		if calls == 1 {
			if err := foreignWrite(s.Root, "F"); err != nil {
				t.Error(err)
			}
		}
	}
	mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "B"})
	if calls != 2 {
		t.Fatalf("commit attempts %d, want 2 (retry after the foreign write)", calls)
	}
	ix := mustLoad(t, s)
	i := ix.Find("foreign-F")
	if i < 0 || len(ix.Sessions) != 3 || string(ix.Sessions[i].Extra["by"]) != `"foreign"` {
		t.Fatalf("foreign record lost or damaged: %s", readIndexFile(t, s.Root))
	}
}

func TestCommitGivesUpWhenFileNeverSettles(t *testing.T) {
	s, _, _ := newStore(t)
	mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "A"})
	n := 0
	s.beforeCommit = func() {
		n++
		if err := foreignWrite(s.Root, fmt.Sprint(n)); err != nil {
			t.Error(err)
		}
	}
	_, err := s.Start(StartOptions{Runtime: "codex", NativeID: "B"})
	if err == nil || !strings.Contains(err.Error(), "kept changing") || n != maxCommitAttempts {
		t.Fatalf("err = %v after %d attempts", err, n)
	}
	if ix := mustLoad(t, s); len(ix.Sessions) != 1+maxCommitAttempts {
		t.Fatalf("foreign records lost: %d", len(ix.Sessions))
	}
}

// TestLockIgnoringWriterUnderLoad races our writers against a tool that
// renames over the file without the lock, while a reader checks every
// version it sees. That tool may drop our records (it does not re-check);
// we must never produce a corrupt file, and once it stops, our next write
// must keep everything it left.
func TestLockIgnoringWriterUnderLoad(t *testing.T) {
	root := t.TempDir()
	writeIndex(t, root, bigLimit)
	var stop atomic.Bool
	var bad atomic.Value
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // observer
		defer wg.Done()
		for !stop.Load() {
			if data, err := os.ReadFile(Path(root)); err == nil {
				if _, err := parseIndex(data); err != nil {
					bad.Store(err.Error())
				}
			}
			runtime.Gosched() // share the CPU with the writers
		}
	}()
	go func() { // foreign writer
		defer wg.Done()
		for i := 0; i < 30; i++ {
			if err := foreignWrite(root, fmt.Sprint(i)); err != nil {
				bad.Store(err.Error())
			}
		}
	}()
	s := &Store{Root: root}
	for i := 0; i < 20; i++ {
		if _, err := s.Start(StartOptions{Runtime: "codex", NativeID: fmt.Sprint("our-", i)}); err != nil && !strings.Contains(err.Error(), "kept changing") {
			t.Fatal(err)
		}
	}
	stop.Store(true)
	wg.Wait()
	if v := bad.Load(); v != nil {
		t.Fatalf("saw an invalid index: %v", v)
	}
	before := mustLoad(t, s)
	mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "final"})
	after := mustLoad(t, s)
	for _, r := range before.Sessions {
		if after.Find(r.ID) < 0 {
			t.Fatalf("record %s lost by our write", r.ID)
		}
	}
	if len(after.Sessions) != len(before.Sessions)+1 {
		t.Fatalf("%d records after, %d before", len(after.Sessions), len(before.Sessions))
	}
}

func TestCorruptFileIsMovedAsideOnWrite(t *testing.T) {
	s, _, warn := newStore(t)
	writeIndex(t, s.Root, `{"sessions": [ {"id": "half`)
	res := mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "A"})
	aside := Path(s.Root) + ".corrupt-20260804T164142Z"
	got, err := os.ReadFile(aside)
	if err != nil || string(got) != `{"sessions": [ {"id": "half` {
		t.Fatalf("corrupt file not preserved at %s: %q %v", aside, got, err)
	}
	if !strings.Contains(warn.String(), aside) || strings.Count(warn.String(), "\n") != 1 {
		t.Fatalf("warning: %q", warn.String())
	}
	if ix := mustLoad(t, s); len(ix.Sessions) != 1 || ix.Sessions[0].ID != res.Session.ID {
		t.Fatalf("fresh index: %+v", ix)
	}
	// A second corruption in the same second gets its own name.
	writeIndex(t, s.Root, "garbage")
	mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "B"})
	if _, err := os.Stat(aside + "-2"); err != nil {
		t.Fatalf("second corrupt copy: %v", err)
	}
}

func TestWriteRefusesSymlinkedIndex(t *testing.T) {
	s, _, _ := newStore(t)
	real := filepath.Join(t.TempDir(), "elsewhere.json")
	if err := os.WriteFile(real, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(Path(s.Root)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, Path(s.Root)); err != nil {
		t.Skip("no symlinks:", err)
	}
	if _, err := s.Start(StartOptions{Runtime: "codex"}); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Fatalf("err = %v", err)
	}
}

func TestFileModes(t *testing.T) {
	s, _, _ := newStore(t)
	mustStart(t, s, StartOptions{Runtime: "codex"})
	for path, want := range map[string]os.FileMode{
		filepath.Dir(Path(s.Root)): 0o755 | os.ModeDir,
		Path(s.Root):               0o644,
		lockPath(s.Root):           0o644,
	} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		// The umask may only remove bits.
		if fi.Mode()&^want != 0 || fi.Mode()&0o600 != 0o600 {
			t.Fatalf("%s mode %v, want %v", path, fi.Mode(), want)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(Path(s.Root)))
	if len(entries) != 3 { // index, lock, .gitignore
		t.Fatalf("leftover temp files: %v", entries)
	}
}

func TestGitignoreOnlyWhenCreatingTheDir(t *testing.T) {
	s, _, _ := newStore(t)
	mustStart(t, s, StartOptions{Runtime: "codex"})
	ignore := filepath.Join(filepath.Dir(Path(s.Root)), ".gitignore")
	b, err := os.ReadFile(ignore)
	if err != nil || !strings.Contains(string(b), "\n*\n") {
		t.Fatalf(".gitignore = %q, %v; want an ignore-all file", b, err)
	}
	// A person who deletes it to commit the index keeps it deleted.
	if err := os.Remove(ignore); err != nil {
		t.Fatal(err)
	}
	mustStart(t, s, StartOptions{Runtime: "claude"})
	if _, err := os.Stat(ignore); !os.IsNotExist(err) {
		t.Fatalf(".gitignore recreated: %v", err)
	}
}
