// Package testledger gives tests the ledger of the backend under test, so
// that every test touching the ledger (the end-to-end scripts, launcher,
// webui, mcpserver, history) runs on SQLite and, in a second pass, on
// PostgreSQL, without a copy of itself per backend.
//
// The backend under test is AI_MEMORY_TEST_LEDGER: unset or "sqlite" is
// the data home's own SQLite file (the default of ai-memory itself);
// "postgres" is a fresh database per ledger on the server
// AI_MEMORY_TEST_POSTGRES, dropped when the test ends. `make race-pg` and
// `make test` run the second pass inside scripts/pg-cluster.sh, which starts
// a private server and sets AI_MEMORY_TEST_POSTGRES (docs/testing.md).
package testledger

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/postgres"
	"github.com/ai-memory/ai-memory/ledger/sqlite"
)

// The environment of the tests.
const (
	// BackendEnv names the backend under test: "sqlite" (default) or "postgres".
	BackendEnv = "AI_MEMORY_TEST_LEDGER"
	// ServerEnv is the PostgreSQL server's URL (a role that may CREATE DATABASE).
	ServerEnv = "AI_MEMORY_TEST_POSTGRES"
)

// Backend is the backend under test, "sqlite" or "postgres"; it panics on
// any other value, since every test of the pass would silently test SQLite.
func Backend() string {
	switch b := os.Getenv(BackendEnv); b {
	case "", "sqlite":
		return "sqlite"
	case "postgres":
		return b
	default:
		panic(fmt.Sprintf("%s=%q: want sqlite or postgres", BackendEnv, b))
	}
}

// OnPostgres reports whether the tests put their ledgers on PostgreSQL.
func OnPostgres() bool { return Backend() == "postgres" }

// Server is the PostgreSQL server of the tests, or an error saying how to
// get one when the pass asks for PostgreSQL without it.
func Server() (string, error) {
	s := os.Getenv(ServerEnv)
	if s == "" {
		return "", fmt.Errorf("%s=postgres needs %s (a server URL): run under scripts/pg-cluster.sh run (make race-pg)", BackendEnv, ServerEnv)
	}
	return s, nil
}

// NewDatabase creates an empty database on the server and returns the URL
// of a ledger in it and a drop function that removes it (forcing out any
// connection a killed process left behind). The name is random, so tests
// and test binaries running side by side never share one.
func NewDatabase(ctx context.Context, server string) (loc string, drop func(), err error) {
	b := make([]byte, 8)
	rand.Read(b)
	name := "aim_" + hex.EncodeToString(b)
	if err := admin(ctx, server, "CREATE DATABASE "+name); err != nil {
		return "", nil, fmt.Errorf("create test database: %w", err)
	}
	u, err := url.Parse(server)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", ServerEnv, err)
	}
	u.Path = "/" + name
	drop = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		admin(ctx, server, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	}
	return u.String(), drop, nil
}

// admin runs one statement on the server's own database.
func admin(ctx context.Context, server, stmt string) error {
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		return ledger.ScrubError(err, server)
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, stmt)
	return ledger.ScrubError(err, server)
}

// Location is the ledger location of a new test ledger: "" (the data
// home's SQLite file) on SQLite, a fresh database on PostgreSQL, dropped
// when t ends.
func Location(t testing.TB) string {
	t.Helper()
	if !OnPostgres() {
		return ""
	}
	server, err := Server()
	if err != nil {
		t.Fatal(err)
	}
	loc, drop, err := NewDatabase(context.Background(), server)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	return loc
}

// Homes remembers the ledger location of each data home a test used, so
// opening the same home again (a reopen, a second process) reaches the
// same ledger, as it does on SQLite.
type Homes struct {
	mu sync.Mutex
	m  map[string]string
}

// Where is the ledger of data home home: the same location every time.
func (h *Homes) Where(t testing.TB, home string) ledger.Where {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = map[string]string{}
	}
	loc, ok := h.m[home]
	if !ok {
		loc = Location(t)
		h.m[home] = loc
	}
	return ledger.Where{Home: home, Location: loc}
}

var homes Homes

// Where is the ledger of data home home for this test binary: the data
// home's SQLite file, or one PostgreSQL database per home.
func Where(t testing.TB, home string) ledger.Where {
	t.Helper()
	return homes.Where(t, home)
}

// Open opens (creating) the ledger of data home home on the backend under
// test and closes it when t ends; opening the same home again reaches the
// same ledger.
func Open(t testing.TB, home string) ledger.Ledger {
	t.Helper()
	l, err := ledger.Open(context.Background(), Where(t, home))
	if err != nil {
		t.Fatalf("open the test ledger: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// SetClock replaces the clock of a ledger Open returned (both backends
// have the hook), so a test drives lease expiry without sleeping.
func SetClock(t testing.TB, l ledger.Ledger, now func() time.Time) {
	t.Helper()
	switch db := l.(type) {
	case *sqlite.DB:
		db.Now = now
	case *postgres.DB:
		db.Now = now
	default:
		t.Fatalf("SetClock: a %T has no clock hook", l)
	}
}
