//go:build linux

package launcher

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/internal/testledger"
	"github.com/ai-memory/ai-memory/ledger/sqlite"
)

// A ledger this user cannot write gets one line naming the file and the
// fix, not "create ledger file: ...", on the read path and the run path.
func TestOpenUnwritableLedger(t *testing.T) {
	if testledger.OnPostgres() {
		t.Skip("an unwritable SQLite ledger file; PostgreSQL's own roles decide who may write")
	}
	home := t.TempDir()
	db, err := sqlite.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	path := filepath.Join(home, "ledger.db")
	makeUnwritable(t, path)
	getenv := func(k string) string {
		if k == "AI_MEMORY_HOME" {
			return home
		}
		return ""
	}
	_, rerr := OpenExistingLedger(getenv)
	_, werr := openLedger(Env{Getenv: getenv})
	for _, err := range []error{rerr, werr} {
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if !strings.Contains(msg, path+" or its directory is not writable") || !strings.Contains(msg, "chmod u+rw") ||
			strings.Contains(msg, "create ledger file") || strings.Contains(msg, "\n") {
			t.Errorf("open unwritable ledger: %q", msg)
		}
	}
}

// makeUnwritable denies this process write access to path: chmod for a
// normal user; root ignores modes, so the immutable attribute instead.
func makeUnwritable(t *testing.T, path string) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(path, 0o400); err != nil {
			t.Fatal(err)
		}
		return
	}
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		t.Skipf("running as root and chattr +i is unavailable (%v: %s)", err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", path).Run() })
}
