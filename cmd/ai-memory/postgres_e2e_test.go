package main

import (
	"os"
	"slices"
	"testing"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/internal/testledger"
)

// TestHarnessScripts_Postgres runs the shared harness scenarios (fresh and
// resume, selectors, kill -9, exit codes, bare runs, the chooser, ...) with
// the ledger on PostgreSQL (AI_MEMORY_LEDGER, a database of its own per
// script) for the two harnesses of the real-CLI acceptance, in the SQLite
// pass of make race: what the launcher does must not depend on the
// backend. It needs AI_MEMORY_TEST_POSTGRES (make race runs it inside
// scripts/pg-cluster.sh); the PostgreSQL pass (make race-pg) runs every
// harness's scenarios on PostgreSQL in TestHarnessScripts instead.
func TestHarnessScripts_Postgres(t *testing.T) {
	if os.Getenv(testledger.ServerEnv) == "" {
		t.Skip("AI_MEMORY_TEST_POSTGRES is not set; run under scripts/pg-cluster.sh run (make race)")
	}
	if testledger.OnPostgres() {
		t.Skip("this pass runs every harness's scenarios on PostgreSQL (TestHarnessScripts)")
	}
	for _, d := range harness.All() {
		if slices.Contains([]string{"claude", "codex"}, d.Name) {
			runHarnessScripts(t, d, "postgres")
		}
	}
}
