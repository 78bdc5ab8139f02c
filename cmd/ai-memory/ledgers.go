package main

// The ledger backends this binary ships with; each registers itself with
// package ledger, which picks one by the ledger location's scheme. Adding
// a backend is one package and one line here (docs/ledger.md).
import (
	_ "github.com/ai-memory/ai-memory/ledger/postgres" // postgres://, postgresql://: a shared server
	_ "github.com/ai-memory/ai-memory/ledger/sqlite"   // default: a file in the data home
)
