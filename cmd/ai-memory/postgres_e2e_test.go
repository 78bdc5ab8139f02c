package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ai-memory/ai-memory/harness"
)

// TestHarnessScripts_Postgres runs the shared harness scenarios (fresh and
// resume, selectors, kill -9, exit codes, bare runs, the chooser, ...) with
// the ledger on PostgreSQL (AI_MEMORY_LEDGER, a schema of its own per
// script) for the two harnesses of the real-CLI acceptance: what the
// launcher does must not depend on the backend. It needs
// AI_MEMORY_TEST_POSTGRES (make race runs it inside scripts/pg-cluster.sh).
func TestHarnessScripts_Postgres(t *testing.T) {
	server := os.Getenv("AI_MEMORY_TEST_POSTGRES")
	if server == "" {
		t.Skip("AI_MEMORY_TEST_POSTGRES is not set; run under scripts/pg-cluster.sh run (make race)")
	}
	for _, d := range harness.All() {
		if slices.Contains([]string{"claude", "codex"}, d.Name) {
			runHarnessScripts(t, d, "postgres", func(e *testscript.Env) error {
				loc, err := pgSchema(server)
				if err != nil {
					return err
				}
				e.Setenv("AI_MEMORY_LEDGER", loc)
				e.Defer(func() { dropSchema(server, loc) })
				return nil
			})
		}
	}
}

// pgSchema creates a schema of its own on the test server and returns the
// URL that uses it.
func pgSchema(server string) (string, error) {
	ctx := context.Background()
	b := make([]byte, 6)
	rand.Read(b)
	name := "e2e_" + hex.EncodeToString(b)
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+name); err != nil {
		return "", err
	}
	u, err := url.Parse(server)
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String(), nil
}

func dropSchema(server, loc string) {
	u, err := url.Parse(loc)
	if err != nil {
		return
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		return
	}
	defer conn.Close(ctx)
	conn.Exec(ctx, "DROP SCHEMA "+pgx.Identifier{u.Query().Get("search_path")}.Sanitize()+" CASCADE")
}
