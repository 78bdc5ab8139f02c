package main

import (
	"context"
	"fmt"

	"github.com/ai-memory/ai-memory/ledger"
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
