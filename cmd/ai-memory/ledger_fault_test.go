package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/ledgertest"
)

// unreachableDriver is a test-only backend, scheme "unreachable", that
// behaves like a server that cannot be reached: every call fails with
// ledger.ErrUnavailable and quotes the whole location, password included,
// as careless drivers do. The scripts prove that ai-memory never shows it.
type unreachableDriver struct{}

func init() { ledger.Register("unreachable", unreachableDriver{}) }

func (unreachableDriver) fail(w ledger.Where) error {
	return fmt.Errorf("dial %s: connection refused: %w", w.Location, ledger.ErrUnavailable)
}

func (d unreachableDriver) Open(_ context.Context, w ledger.Where) (ledger.Ledger, error) {
	return nil, d.fail(w)
}

func (d unreachableDriver) OpenForCheck(_ context.Context, w ledger.Where) (ledger.Ledger, error) {
	return nil, d.fail(w)
}

func (d unreachableDriver) Exists(_ context.Context, w ledger.Where) (bool, string, error) {
	return false, w.Location, d.fail(w)
}

// faultyDriver is a test-only backend, scheme "faulty": faulty:///PATH is
// the SQLite ledger file PATH, unreachable (ledger.ErrUnavailable) while
// the file PATH.down exists, so a script can take the "server" down and
// up around and during a run (see the fault command).
type faultyDriver struct{}

func init() { ledger.Register("faulty", faultyDriver{}) }

func (faultyDriver) where(w ledger.Where) (ledger.Where, func() bool) {
	path := strings.TrimPrefix(w.Location, "faulty://")
	down := func() bool { _, err := os.Stat(path + ".down"); return err == nil }
	return ledger.Where{Home: w.Home, Location: path}, down
}

func (d faultyDriver) open(ctx context.Context, w ledger.Where, open func(context.Context, ledger.Where) (ledger.Ledger, error)) (ledger.Ledger, error) {
	inner, down := d.where(w)
	if down() {
		return nil, fmt.Errorf("connect to %s: connection refused: %w", w.Location, ledger.ErrUnavailable)
	}
	l, err := open(ctx, inner)
	if err != nil {
		return nil, err
	}
	f := ledgertest.NewFaulty(l)
	f.Switch = down
	return f, nil
}

func (d faultyDriver) Open(ctx context.Context, w ledger.Where) (ledger.Ledger, error) {
	return d.open(ctx, w, ledger.Open)
}

func (d faultyDriver) OpenForCheck(ctx context.Context, w ledger.Where) (ledger.Ledger, error) {
	return d.open(ctx, w, ledger.OpenForCheck)
}

func (d faultyDriver) Exists(ctx context.Context, w ledger.Where) (bool, string, error) {
	inner, down := d.where(w)
	if down() {
		return false, w.Location, fmt.Errorf("connect to %s: connection refused: %w", w.Location, ledger.ErrUnavailable)
	}
	return ledger.Exists(ctx, inner)
}
