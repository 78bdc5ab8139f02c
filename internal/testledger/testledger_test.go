package testledger

import (
	"context"
	"os"
	"testing"

	"github.com/ai-memory/ai-memory/ledger"
)

func TestBackend(t *testing.T) {
	tests := []struct {
		env, want string
		panics    bool
	}{
		{env: "", want: "sqlite"},
		{env: "sqlite", want: "sqlite"},
		{env: "postgres", want: "postgres"},
		{env: "postgresql", panics: true}, // a typo must not silently test SQLite
		{env: "mysql", panics: true},
	}
	for _, tt := range tests {
		t.Run(tt.env, func(t *testing.T) {
			t.Setenv(BackendEnv, tt.env)
			defer func() {
				if r := recover(); (r != nil) != tt.panics {
					t.Fatalf("Backend() with %q: panic %v, want panic %v", tt.env, r, tt.panics)
				}
			}()
			if got := Backend(); got != tt.want {
				t.Fatalf("Backend() with %q = %q, want %q", tt.env, got, tt.want)
			}
		})
	}
}

func TestServerMissing(t *testing.T) {
	t.Setenv(ServerEnv, "")
	if _, err := Server(); err == nil {
		t.Fatal("Server() without AI_MEMORY_TEST_POSTGRES: no error")
	}
}

// Each database is a ledger of its own, and drop removes it.
func TestNewDatabase(t *testing.T) {
	server := os.Getenv(ServerEnv)
	if server == "" {
		t.Skip("AI_MEMORY_TEST_POSTGRES is not set; run under scripts/pg-cluster.sh run")
	}
	ctx := context.Background()
	a, dropA, err := NewDatabase(ctx, server)
	if err != nil {
		t.Fatal(err)
	}
	b, dropB, err := NewDatabase(ctx, server)
	if err != nil {
		t.Fatal(err)
	}
	defer dropB()
	if a == b {
		t.Fatalf("two databases share the URL %s", ledger.HidePassword(a))
	}
	la, err := ledger.Open(ctx, ledger.Where{Home: t.TempDir(), Location: a})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := la.SelectWorkstream(ctx, ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w", Cwd: "/x"}, ledger.Selector{}); err != nil {
		t.Fatal(err)
	}
	la.Close()
	lb, err := ledger.Open(ctx, ledger.Where{Home: t.TempDir(), Location: b})
	if err != nil {
		t.Fatal(err)
	}
	defer lb.Close()
	if ws, err := lb.AllWorkstreams(ctx); err != nil || len(ws) != 0 {
		t.Fatalf("the second database sees %d workstreams (%v), want none", len(ws), err)
	}
	dropA()
	if _, err := ledger.Open(ctx, ledger.Where{Home: t.TempDir(), Location: a}); err == nil {
		t.Fatal("the dropped database still opens")
	}
}
