package sqlite

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ai-memory/ai-memory/ledger"
)

// The SQLite backend is the default: a Location without a scheme.
// backendName is this backend's scheme, and its mark on a batch it prepared.
const backendName = ledger.DefaultScheme

func init() { ledger.Register(backendName, driver{}) }

var _ ledger.Ledger = (*DB)(nil)
var _ ledger.FileBacked = (*DB)(nil)

// driver opens the ledger file of a data home (FileName in Where.Home,
// or the file Where.Location names).
type driver struct{}

// FileName is the ledger file in the data home.
const FileName = "ledger.db"

// Scheme is the prefix a location may carry to name this backend
// explicitly (sqlite:///path/ledger.db); a bare absolute path is the same.
const Scheme = ledger.DefaultScheme + "://"

// options maps w to the home and ledger file. The file is the home's
// ledger.db unless the location names another one: an absolute path,
// which several data homes may share (each keeps its own segments, state
// snapshots and run directories). Machine and lease come with w.
func options(w ledger.Where) (Options, error) {
	o := Options{Machine: w.Machine, Lease: w.Lease, Notice: w.Notice}
	loc := strings.TrimPrefix(w.Location, Scheme)
	switch {
	case loc == "":
		o.File = filepath.Join(w.Home, FileName)
	case !filepath.IsAbs(loc):
		return Options{}, fmt.Errorf("open ledger: a SQLite ledger location must be an absolute file path, not %q", w.Location)
	default:
		o.File = filepath.Clean(loc)
	}
	return o, nil
}

// Open opens (creating if needed) the ledger of w. A ledger this user may
// not write (ai-memory needs write access even to read: the schema check,
// WAL and busy handling write) gets what to fix instead of "create ledger
// file".
func (driver) Open(ctx context.Context, w ledger.Where) (ledger.Ledger, error) {
	o, err := options(w)
	if err != nil {
		return nil, err
	}
	db, err := OpenWith(ctx, w.Home, o)
	if errors.Is(err, fs.ErrPermission) {
		dir := filepath.Dir(o.File)
		return nil, fmt.Errorf("%s or its directory is not writable by this user (permission denied); ai-memory needs read and write access to both: fix the owner or mode (chmod u+rw %s; chmod u+rwx %s)", o.File, o.File, dir)
	}
	if err != nil {
		return nil, err // a nil Ledger, never one holding a nil *DB
	}
	return db, nil
}

func (driver) OpenForCheck(ctx context.Context, w ledger.Where) (ledger.Ledger, error) {
	o, err := options(w)
	if err != nil {
		return nil, err
	}
	db, err := OpenForCheck(ctx, w.Home, o)
	if err != nil {
		return nil, err
	}
	return db, nil
}

func (driver) Exists(_ context.Context, w ledger.Where) (bool, string, error) {
	o, err := options(w)
	if err != nil {
		return false, "", err
	}
	_, err = os.Stat(o.File)
	if errors.Is(err, fs.ErrNotExist) {
		return false, o.File, nil
	}
	return err == nil, o.File, err
}
