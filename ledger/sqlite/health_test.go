package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// healthLedger makes a closed ledger with events, one finished run and one
// run still holding its lease, and returns its home.
func healthLedger(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ws := mustWorkstream(t, db, "default")
	run, _, err := db.AcquireLease(ctx, ws.ID, "claude", ledger.Owner{Host: "elsewhere", PID: 42})
	if err != nil {
		t.Fatal(err)
	}
	mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, RunID: run.ID, Events: msgs("s1", 0, 200, "health check text")})
	return db.Home()
}

func TestHealthHealthy(t *testing.T) {
	home := healthLedger(t)
	db, err := OpenForCheck(context.Background(), home, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h, err := db.Health(context.Background(), ledger.HealthOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if h.Location != filepath.Join(home, "ledger.db") || h.Schema != KnownSchemaVersion() || h.KnownSchema != h.Schema {
		t.Errorf("location/schema = %q %d/%d", h.Location, h.Schema, h.KnownSchema)
	}
	if h.Integrity.Check != "integrity_check" || !h.Integrity.Complete || len(h.Integrity.Problems) != 0 {
		t.Errorf("integrity = %+v", h.Integrity)
	}
	if h.Sizes[0].Name != "ledger" || h.Sizes[0].Bytes == 0 || h.Sizes[2].Bytes == 0 {
		t.Errorf("sizes = %+v, want a ledger and segments", h.Sizes)
	}
	if h.Unwritable != nil {
		t.Errorf("unwritable: %v", h.Unwritable)
	}
	if len(h.Leases) != 1 || h.Leases[0].Harness != "claude" || h.Leases[0].Host != "elsewhere" || h.Leases[0].PID != 42 || h.Leases[0].Stale {
		t.Errorf("leases = %+v", h.Leases)
	}
}

// A check must not write: the file is unchanged and an older schema is
// reported, not migrated.
func TestOpenForCheckWritesNothing(t *testing.T) {
	home := healthLedger(t)
	path := filepath.Join(home, "ledger.db")
	before, _ := os.ReadFile(path)
	db, err := OpenForCheck(context.Background(), home, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.sql.Exec(`DELETE FROM schema_version`); err == nil {
		t.Error("a check connection accepted a write")
	}
	if _, err := db.Health(context.Background(), ledger.HealthOptions{}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("OpenForCheck + Health changed ledger.db")
	}
}

func TestHealthQuickCheckAndBudget(t *testing.T) {
	home := healthLedger(t)
	db, err := OpenForCheck(context.Background(), home, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h, _ := db.Health(context.Background(), ledger.HealthOptions{QuickCheckAbove: 1})
	if h.Integrity.Check != "quick_check" || !h.Integrity.Complete {
		t.Errorf("big file: integrity = %+v, want a complete quick_check", h.Integrity)
	}
	h, _ = db.Health(context.Background(), ledger.HealthOptions{IntegrityBudget: time.Nanosecond})
	if h.Integrity.Complete {
		t.Errorf("1 ns budget: integrity = %+v, want incomplete", h.Integrity)
	}
}

// Damage in the middle of the file (the header intact) opens, and the
// integrity check names it.
func TestHealthCorrupt(t *testing.T) {
	home := healthLedger(t)
	path := filepath.Join(home, "ledger.db")
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := f.Stat()
	junk := []byte(strings.Repeat("\xa5", int(st.Size()/2)))
	if _, err := f.WriteAt(junk, st.Size()/4); err != nil {
		t.Fatal(err)
	}
	f.Close()
	db, err := OpenForCheck(context.Background(), home, Options{})
	if err != nil {
		t.Logf("open failed, as a damaged ledger may: %v", err)
		return
	}
	defer db.Close()
	h, _ := db.Health(context.Background(), ledger.HealthOptions{})
	if !h.Integrity.Complete || len(h.Integrity.Problems) == 0 {
		t.Errorf("integrity of a damaged ledger = %+v, want problems", h.Integrity)
	}
	for _, p := range h.Integrity.Problems {
		if strings.Contains(p, "\n") || strings.HasPrefix(p, "***") {
			t.Errorf("problem %q: want one line per problem, no headers", p)
		}
	}
}

func TestOpenForCheckNotALedger(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "ledger.db"), []byte(strings.Repeat("not sqlite ", 500)), 0o600)
	if _, err := OpenForCheck(context.Background(), home, Options{}); err == nil || !strings.Contains(err.Error(), "not a valid ai-memory ledger") {
		t.Errorf("err = %v, want the not-a-ledger message", err)
	}
	if _, err := OpenForCheck(context.Background(), t.TempDir(), Options{}); err == nil {
		t.Error("a home without a ledger opened")
	}
}

func TestHealthUnwritable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes any file")
	}
	home := healthLedger(t)
	if err := os.Chmod(filepath.Join(home, "ledger.db"), 0o400); err != nil {
		t.Fatal(err)
	}
	db, err := OpenForCheck(context.Background(), home, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if h, _ := db.Health(context.Background(), ledger.HealthOptions{}); h.Unwritable == nil {
		t.Error("a read-only ledger.db counts as writable")
	}
}
