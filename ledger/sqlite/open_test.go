package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/ledger"
)

func TestDefaultHome(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
		err  bool
	}{
		{"explicit home wins", map[string]string{"AI_MEMORY_HOME": "/data/am", "XDG_DATA_HOME": "/x", "HOME": "/h"}, "/data/am", false},
		{"blank explicit is unset", map[string]string{"AI_MEMORY_HOME": "  ", "XDG_DATA_HOME": "/x", "HOME": "/h"}, "/x/ai-memory", false},
		{"xdg", map[string]string{"XDG_DATA_HOME": "/x", "HOME": "/h"}, "/x/ai-memory", false},
		{"relative xdg ignored", map[string]string{"XDG_DATA_HOME": "rel", "HOME": "/h"}, "/h/.local/share/ai-memory", false},
		{"home fallback", map[string]string{"HOME": "/h"}, "/h/.local/share/ai-memory", false},
		{"nothing set", map[string]string{}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ledger.DefaultHome(func(k string) string { return tt.env[k] })
			if (err != nil) != tt.err || got != tt.want {
				t.Fatalf("DefaultHome = %q, %v; want %q (error %v)", got, err, tt.want, tt.err)
			}
		})
	}
}

func TestOpen_MigratesEmptyFileAndReopens(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "ledger.db"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // the second open must find nothing to apply
		db, err := Open(context.Background(), home)
		if err != nil {
			t.Fatalf("open #%d: %v", i, err)
		}
		var n, max int
		if err := db.sql.QueryRow(`SELECT COUNT(*), MAX(version) FROM schema_version`).Scan(&n, &max); err != nil {
			t.Fatal(err)
		}
		if n != len(mustMigrations(t)) || max != KnownSchemaVersion() || db.SchemaVersion() != max {
			t.Fatalf("open #%d: %d versions recorded, max %d; want %d, %d", i, n, max, len(mustMigrations(t)), KnownSchemaVersion())
		}
		assertPragma(t, db, "journal_mode", "wal")
		assertPragma(t, db, "foreign_keys", "1")
		assertPragma(t, db, "synchronous", "1")
		assertPragma(t, db, "busy_timeout", "5000")
		db.Close()
	}
}

func mustMigrations(t *testing.T) []migration {
	ms, err := migrations()
	if err != nil || len(ms) == 0 {
		t.Fatalf("migrations: %v (%d)", err, len(ms))
	}
	return ms
}

func assertPragma(t *testing.T, db *DB, name, want string) {
	t.Helper()
	var got string
	if err := db.sql.QueryRow("PRAGMA " + name).Scan(&got); err != nil || got != want {
		t.Errorf("PRAGMA %s = %q, %v; want %q", name, got, err, want)
	}
}

func TestOpen_RefusesNewerSchema(t *testing.T) {
	home := t.TempDir()
	db, err := Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	newer := KnownSchemaVersion() + 5
	if _, err := db.sql.Exec(`INSERT INTO schema_version VALUES (?, 'future', 0)`, newer); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(context.Background(), home)
	if !errors.Is(err, ledger.ErrSchemaTooNew) {
		t.Fatalf("Open of a newer schema = %v; want ErrSchemaTooNew", err)
	}
	want := "ledger schema version " + strconv.Itoa(newer) + " is newer than this ai-memory (knows " + strconv.Itoa(KnownSchemaVersion()) + "); upgrade ai-memory"
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("message %q does not contain %q", err, want)
	}
}

func TestOpen_CorruptFile(t *testing.T) {
	home := t.TempDir()
	junk := []byte(strings.Repeat("this is not a sqlite database\n", 400))
	if err := os.WriteFile(filepath.Join(home, "ledger.db"), junk, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), home)
	if err == nil || !strings.Contains(err.Error(), "is not a valid ai-memory ledger") || !strings.Contains(err.Error(), "move it and its -wal and -shm files aside") {
		t.Fatalf("Open of a corrupt file = %v; want a clear 'not a valid ledger' error", err)
	}
}

func TestFileModes(t *testing.T) {
	home := filepath.Join(t.TempDir(), "nested", "home")
	db, err := Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ws := mustWorkstream(t, db, "modes")
	res := mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, RunID: "r", Events: msgs("s", 0, 2, "x")})
	want := map[string]os.FileMode{
		home:                                   0o700,
		filepath.Join(home, "ledger.db"):       0o600,
		filepath.Join(home, "ledger.db-wal"):   0o600,
		filepath.Join(home, "segments"):        0o700,
		filepath.Join(home, "segments", ws.ID): 0o700,
		filepath.Join(home, filepath.FromSlash(res.SegmentPath)): 0o600,
	}
	for p, m := range want {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Mode().Perm(); got != m {
			t.Errorf("%s mode %o; want %o", p, got, m)
		}
	}
}

func TestOpen_LockedByAnotherWriter(t *testing.T) {
	home := t.TempDir()
	db, err := OpenWith(context.Background(), home, Options{BusyTimeout: 50e6})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ws := mustWorkstream(t, db, "locked")
	// A second connection takes the write lock and never commits, like a
	// writer that hung mid-transaction.
	holder, err := sql.Open("sqlite", "file:"+filepath.Join(home, "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	tx, err := holder.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`UPDATE workstreams SET cwd = cwd`); err != nil {
		t.Fatal(err)
	}
	_, err = db.Append(context.Background(), ledger.Batch{WorkstreamID: ws.ID, Events: msgs("s", 0, 1, "x")})
	if !errors.Is(err, ledger.ErrLocked) || !strings.Contains(err.Error(), "locked by another process") {
		t.Fatalf("Append under a held write lock = %v; want ErrLocked", err)
	}
	if n, _ := db.CountEvents(context.Background(), ws.ID); n != 0 {
		t.Fatalf("%d events stored despite the failure", n)
	}
}
