package sqlite

import (
	"context"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/ledgertest"
)

// TestConformance runs the backend-independent ledger suite on SQLite.
func TestConformance(t *testing.T) {
	ledgertest.Run(t, ledgertest.Backend{Open: func(t testing.TB, home, machine string, now func() time.Time, alive func(ledger.Owner) bool) ledger.Ledger {
		db, err := OpenWith(context.Background(), home, Options{Machine: machine})
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		db.Now, db.ProcessAlive = now, alive
		return db
	}})
}
