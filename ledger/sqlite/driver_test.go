package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ai-memory/ai-memory/ledger"
)

// TestDriver: the default backend is registered, creates nothing when
// asked whether a ledger exists, and opens ledger.db in the data home.
func TestDriver(t *testing.T) {
	ctx := context.Background()
	home := filepath.Join(t.TempDir(), "data")
	w := ledger.Where{Home: home}
	ok, desc, err := ledger.Exists(ctx, w)
	if ok || err != nil || desc != filepath.Join(home, FileName) {
		t.Fatalf("Exists on a new home = %v %q %v", ok, desc, err)
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Fatalf("Exists created the data home (%v)", err)
	}
	db, err := ledger.Open(ctx, w)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.Home() != home || db.Location() != filepath.Join(home, FileName) {
		t.Fatalf("Home %q Location %q", db.Home(), db.Location())
	}
	if f, isFile := db.(ledger.FileBacked); !isFile || f.File() != db.Location() {
		t.Fatal("a SQLite ledger must be FileBacked by its file")
	}
	if ok, _, err := ledger.Exists(ctx, w); !ok || err != nil {
		t.Fatalf("Exists after Open = %v, %v", ok, err)
	}
	if _, err := ledger.Open(ctx, ledger.Where{Home: home, Location: "sqlite://relative/l.db"}); err == nil {
		t.Fatal("a relative SQLite ledger location was opened")
	}
	chk, err := ledger.OpenForCheck(ctx, w)
	if err != nil {
		t.Fatalf("OpenForCheck: %v", err)
	}
	if chk.SchemaVersion() != KnownSchemaVersion() {
		t.Fatalf("OpenForCheck schema %d; want %d", chk.SchemaVersion(), KnownSchemaVersion())
	}
	chk.Close()
}

// TestDriverSharedFile: a location naming a file opens that file, and two
// data homes sharing it see one ledger (how tests simulate two machines
// on one ledger without a server); each home keeps its own segments.
func TestDriverSharedFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "shared", "team.db")
	a := ledger.Where{Home: filepath.Join(dir, "a"), Location: file}
	b := ledger.Where{Home: filepath.Join(dir, "b"), Location: Scheme + file}
	if ok, desc, err := ledger.Exists(ctx, a); ok || err != nil || desc != file {
		t.Fatalf("Exists before Open = %v %q %v", ok, desc, err)
	}
	la, err := ledger.Open(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer la.Close()
	if la.Location() != file || la.Home() != a.Home {
		t.Fatalf("Location %q Home %q", la.Location(), la.Home())
	}
	if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("ledger file %v %v; want mode 0600", st, err)
	}
	ws, err := la.SelectWorkstream(ctx, ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w"}, ledger.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := la.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, Events: msgs("s", 0, 2, "shared")}); err != nil {
		t.Fatal(err)
	}
	lb, err := ledger.Open(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer lb.Close()
	if n, err := lb.CountEvents(ctx, ws.ID); n != 2 || err != nil {
		t.Fatalf("home b sees %d events (%v); want 2", n, err)
	}
	if _, err := os.Stat(filepath.Join(a.Home, FileName)); !os.IsNotExist(err) {
		t.Fatalf("a ledger.db was created in the data home (%v)", err)
	}
	if segs, _ := filepath.Glob(filepath.Join(a.Home, "segments", "*", "*")); len(segs) == 0 {
		t.Fatal("home a has no segment for the events it appended")
	}
	if h, err := la.Health(ctx, ledger.HealthOptions{}); err != nil || h.Location != file || h.Sizes[0].Bytes == 0 {
		t.Fatalf("Health = %+v, %v; want the shared file measured as the ledger", h, err)
	}
}
