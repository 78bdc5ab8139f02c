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
	if _, err := ledger.Open(ctx, ledger.Where{Home: home, Location: "/elsewhere"}); err == nil {
		t.Fatal("a SQLite ledger outside its data home was opened")
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
