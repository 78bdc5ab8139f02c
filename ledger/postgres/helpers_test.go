package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ai-memory/ai-memory/ledger"
)

// testServer is the PostgreSQL server of the tests: AI_MEMORY_TEST_POSTGRES
// (scripts/pg-cluster.sh starts a private one; `make test` always does).
// Without it the tests skip.
func testServer(t testing.TB) string {
	t.Helper()
	u := os.Getenv("AI_MEMORY_TEST_POSTGRES")
	if u == "" {
		t.Skip("AI_MEMORY_TEST_POSTGRES is not set; run under scripts/pg-cluster.sh run (make pg-test)")
	}
	return u
}

// freshSchema creates a schema of its own for one test and returns the
// server URL that uses it (search_path), dropping it at the end.
func freshSchema(t testing.TB) string {
	t.Helper()
	server := testServer(t)
	ctx := context.Background()
	b := make([]byte, 6)
	rand.Read(b)
	name := "t_" + hex.EncodeToString(b)
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatalf("connect to the test server: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+name); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), server)
		if err == nil {
			c.Exec(context.Background(), "DROP SCHEMA "+name+" CASCADE")
			c.Close(context.Background())
		}
	})
	return withParam(t, server, "search_path", name)
}

func withParam(t testing.TB, server, k, v string) string {
	u, err := url.Parse(server)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set(k, v)
	u.RawQuery = q.Encode()
	return u.String()
}

// homes maps each data home a test opened to its schema, so opening a home
// again opens the same ledger.
type homes struct {
	mu sync.Mutex
	m  map[string]string
}

func (h *homes) location(t testing.TB, home string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = map[string]string{}
	}
	if loc, ok := h.m[home]; ok {
		return loc
	}
	loc := freshSchema(t)
	h.m[home] = loc
	return loc
}

// openTest opens a ledger in a fresh schema and temp data home.
func openTest(t testing.TB) *DB {
	t.Helper()
	db, err := Open(context.Background(), ledger.Where{Home: t.TempDir(), Location: freshSchema(t)})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
