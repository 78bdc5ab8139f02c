package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/ledgertest"
)

// TestConformance runs the backend-independent ledger suite on PostgreSQL:
// each test ledger is a schema of its own on the test server, and the test
// clock replaces the server's (production never reads a client clock).
func TestConformance(t *testing.T) {
	testServer(t)
	var hs homes
	ledgertest.Run(t, ledgertest.Backend{Open: func(t testing.TB, home, machine string, now func() time.Time, alive func(ledger.Owner) bool) ledger.Ledger {
		db, err := Open(context.Background(), ledger.Where{Home: home, Location: hs.location(t, home), Machine: machine})
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		db.Now = now
		db.ProcessAlive = alive
		return db
	}})
}
