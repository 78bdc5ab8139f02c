package launcher

// The launcher opens ledgers through ledger.Open; the binary registers the
// backends (cmd/ai-memory/ledgers.go), these tests the default one.
import _ "github.com/ai-memory/ai-memory/ledger/sqlite"
