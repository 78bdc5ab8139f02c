package ledger

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// Driver opens the ledgers of one backend. A backend package registers its
// driver in init (the way database/sql drivers do), and the binary imports
// the backends it ships with (cmd/ai-memory/ledgers.go).
type Driver interface {
	// Open opens, creating and migrating if needed, the ledger at w.
	Open(ctx context.Context, w Where) (Ledger, error)
	// OpenForCheck opens an existing ledger for inspection only: it
	// neither migrates nor writes, whatever the schema version.
	OpenForCheck(ctx context.Context, w Where) (Ledger, error)
	// Exists reports whether the ledger at w was ever created, creating
	// nothing; desc names it for messages (a file path, a server address).
	Exists(ctx context.Context, w Where) (ok bool, desc string, err error)
}

// Where says where a ledger and its data live. They are separate: the data
// home always is a local directory (run directories, segments, state
// snapshots), while the ledger may be a file in it or a server.
type Where struct {
	// Home is the data home (DefaultHome).
	Home string
	// Location is the ledger: empty or an absolute path picks the default
	// backend ("" = its usual place in Home, a path = a ledger file
	// there); "scheme://…" picks the backend registered for scheme.
	// Choose fills it from the flag, environment and config file.
	Location string
	// Machine is the machine id this process acts as (links, cursors and
	// lease probing are per machine); "" means the data home's own, from
	// its machine-id file (MachineOf).
	Machine string
	// Lease is the lease length; 0 means LeaseDuration. Only tests shorten
	// it (AI_MEMORY_LEASE_SECONDS).
	Lease time.Duration
	// Notice, when set, receives a line before work that keeps Open busy
	// for long (upgrading a large ledger's schema) and one when it is done,
	// so a user is not left facing a silent terminal. Nil says nothing.
	Notice func(line string)
}

// DefaultScheme names the backend of a Location without a scheme.
const DefaultScheme = "sqlite"

var (
	driversMu sync.RWMutex
	drivers   = map[string]Driver{}
)

// Register makes a backend available under scheme. It panics when scheme
// is registered twice or d is nil: both are programming errors.
func Register(scheme string, d Driver) {
	driversMu.Lock()
	defer driversMu.Unlock()
	if d == nil {
		panic("ledger: Register driver is nil")
	}
	if _, dup := drivers[scheme]; dup {
		panic("ledger: Register called twice for scheme " + scheme)
	}
	drivers[scheme] = d
}

// Schemes lists the registered backends, sorted.
func Schemes() []string {
	driversMu.RLock()
	defer driversMu.RUnlock()
	out := make([]string, 0, len(drivers))
	for s := range drivers {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// Open opens (creating if needed) the ledger at w with the backend its
// Location names. Here and in OpenForCheck and Exists, the location's
// password is scrubbed from errors whatever the backend put in them.
func Open(ctx context.Context, w Where) (Ledger, error) {
	d, err := driverFor(w.Location)
	if err != nil {
		return nil, err
	}
	l, err := d.Open(ctx, w)
	return l, ScrubError(err, w.Location)
}

// OpenForCheck opens the existing ledger at w for inspection only.
func OpenForCheck(ctx context.Context, w Where) (Ledger, error) {
	d, err := driverFor(w.Location)
	if err != nil {
		return nil, err
	}
	l, err := d.OpenForCheck(ctx, w)
	return l, ScrubError(err, w.Location)
}

// Exists reports whether the ledger at w was ever created, creating nothing.
func Exists(ctx context.Context, w Where) (bool, string, error) {
	d, err := driverFor(w.Location)
	if err != nil {
		return false, "", err
	}
	ok, desc, err := d.Exists(ctx, w)
	return ok, HidePassword(desc), ScrubError(err, w.Location)
}

// driverFor picks the backend by the location's scheme.
func driverFor(location string) (Driver, error) {
	scheme := Backend(location)
	driversMu.RLock()
	d, ok := drivers[scheme]
	driversMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("open ledger: no %q backend in this ai-memory (known: %s)", scheme, strings.Join(Schemes(), ", "))
	}
	return d, nil
}
