package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// A ledger written before machines existed is upgraded by the machine that
// opens it first: its links and runs become that machine's, and another
// machine opening it later changes nothing (its sessions are not there).
func TestMigrate_MachineAdoptsOldRowsOnce(t *testing.T) {
	ctx := context.Background()
	home, golden := extractFixture(t)
	laptop, err := OpenWith(ctx, home, Options{Machine: "laptop"})
	must(t, err)
	defer laptop.Close()
	desktop, err := OpenWith(ctx, home, Options{Machine: "desktop"})
	must(t, err)
	defer desktop.Close()
	id := goldenString(t, golden, "main/id")
	links, err := desktop.Links(ctx, id)
	must(t, err)
	runs, err := desktop.Runs(ctx, id, 0)
	must(t, err)
	if len(links) == 0 || len(runs) == 0 {
		t.Fatalf("fixture has %d links, %d runs; want some", len(links), len(runs))
	}
	for _, l := range links {
		if l.Machine != "laptop" {
			t.Fatalf("link %+v; want it adopted by the upgrading machine", l)
		}
	}
	for _, r := range runs {
		if r.Owner.Machine != "laptop" {
			t.Fatalf("run owner %+v; want it adopted by the upgrading machine", r.Owner)
		}
	}
	if _, ok, _ := desktop.CurrentLink(ctx, id, "claude"); ok {
		t.Fatal("another machine resumes a session of the upgrading machine")
	}
	if _, ok, _ := laptop.CurrentLink(ctx, id, "claude"); !ok {
		t.Fatal("the upgrading machine lost its current claude session")
	}
	if _, err := os.Stat(filepath.Join(home, ledger.MachineFile)); !os.IsNotExist(err) {
		t.Fatalf("an explicit machine id wrote a machine-id file: %v", err)
	}
}

// The data home's own machine id is made on first open and kept; a check
// (doctor) never makes one.
func TestOpen_MachineIDOfTheDataHome(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	db, err := Open(ctx, home)
	must(t, err)
	first := db.Machine()
	db.Close()
	if ledger.CheckMachineID(first) != nil {
		t.Fatalf("machine id %q", first)
	}
	chk, err := OpenForCheck(ctx, home, Options{})
	must(t, err)
	defer chk.Close()
	if chk.Machine() != first {
		t.Fatalf("check sees machine %q; want %q", chk.Machine(), first)
	}
	other := t.TempDir()
	db2, err := Open(ctx, other)
	must(t, err)
	defer db2.Close()
	must(t, os.Remove(filepath.Join(other, ledger.MachineFile)))
	chk2, err := OpenForCheck(ctx, other, Options{})
	must(t, err)
	defer chk2.Close()
	if _, err := os.Stat(filepath.Join(other, ledger.MachineFile)); chk2.Machine() != "" || !os.IsNotExist(err) {
		t.Fatalf("check made a machine id %q (%v); want none written", chk2.Machine(), err)
	}
}

// Options.Lease (AI_MEMORY_LEASE_SECONDS, tests only) shortens the lease:
// acquire and renew set it, and another machine's lease lapses after it.
func TestLease_Shortened(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	clk := &testClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	open := func(machine string) *DB {
		db, err := OpenWith(ctx, home, Options{Machine: machine, Lease: 3 * time.Second})
		must(t, err)
		t.Cleanup(func() { db.Close() })
		db.Now = clk.Now
		return db
	}
	a, b := open("a"), open("b")
	ws := mustWorkstream(t, a, "w")
	run, _, err := a.AcquireLease(ctx, ws.ID, "claude", ledger.CurrentOwner())
	if err != nil || !run.LeaseExpiresAt.Equal(clk.Now().Add(3*time.Second)) {
		t.Fatalf("acquire = %+v, %v; want a 3 s lease", run, err)
	}
	clk.Advance(2 * time.Second)
	if until, err := a.RenewLease(ctx, run.ID); err != nil || !until.Equal(clk.Now().Add(3*time.Second)) {
		t.Fatalf("renew = %v, %v; want now + 3 s", until, err)
	}
	clk.Advance(3*time.Second - time.Microsecond)
	if _, _, err := b.AcquireLease(ctx, ws.ID, "codex", ledger.CurrentOwner()); err == nil {
		t.Fatal("B took a live lease of A (this process is alive but on another machine)")
	}
	clk.Advance(time.Microsecond)
	if _, reclaimed, err := b.AcquireLease(ctx, ws.ID, "codex", ledger.CurrentOwner()); err != nil || len(reclaimed) != 1 {
		t.Fatalf("B after the shortened lease lapsed = %v, %v", reclaimed, err)
	}
}
