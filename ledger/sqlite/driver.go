package sqlite

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ai-memory/ai-memory/ledger"
)

// The SQLite backend is the default: a Location without a scheme.
func init() { ledger.Register(ledger.DefaultScheme, driver{}) }

var _ ledger.Ledger = (*DB)(nil)
var _ ledger.FileBacked = (*DB)(nil)

// driver opens the ledger file of a data home (FileName in Where.Home).
type driver struct{}

// FileName is the ledger file in the data home.
const FileName = "ledger.db"

// home returns the directory holding the ledger file. Only the default
// place is supported: a SQLite ledger lives in its data home, so its
// segments, state snapshots and run directories stay next to it.
func home(w ledger.Where) (string, error) {
	if w.Location != "" {
		return "", fmt.Errorf("open ledger: a SQLite ledger lives in its data home (set AI_MEMORY_HOME), not at %q", w.Location)
	}
	return w.Home, nil
}

// Open opens (creating if needed) the ledger of w.Home. A ledger this user
// may not write (ai-memory needs write access even to read: the schema
// check, WAL and busy handling write) gets what to fix instead of "create
// ledger file".
func (driver) Open(ctx context.Context, w ledger.Where) (ledger.Ledger, error) {
	h, err := home(w)
	if err != nil {
		return nil, err
	}
	db, err := OpenWith(ctx, h, Options{Machine: w.Machine, Lease: w.Lease})
	if errors.Is(err, fs.ErrPermission) {
		path := filepath.Join(h, FileName)
		return nil, fmt.Errorf("%s or its directory is not writable by this user (permission denied); ai-memory needs read and write access to both: fix the owner or mode (chmod u+rw %s; chmod u+rwx %s)", path, path, h)
	}
	if err != nil {
		return nil, err // a nil Ledger, never one holding a nil *DB
	}
	return db, nil
}

func (driver) OpenForCheck(ctx context.Context, w ledger.Where) (ledger.Ledger, error) {
	h, err := home(w)
	if err != nil {
		return nil, err
	}
	db, err := openForCheck(ctx, h, w.Machine)
	if err != nil {
		return nil, err
	}
	return db, nil
}

func (driver) Exists(_ context.Context, w ledger.Where) (bool, string, error) {
	h, err := home(w)
	if err != nil {
		return false, "", err
	}
	path := filepath.Join(h, FileName)
	_, err = os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, path, nil
	}
	return err == nil, path, err
}
