package sqlite

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"time"
)

// createLedgerFile makes ledger.db appear atomically, already initialised:
// the page size, WAL mode and the schema_version table are set up in a
// private temporary file beside path, which is then hard-linked to path.
// Linking fails if path exists, so when several processes create a fresh
// home at once exactly one file wins and the others use it; none of them
// runs the one-time PRAGMAs on a file another process has open (which
// failed at once with SQLITE_BUSY: bootstrapping had no busy timeout).
func createLedgerFile(dir, path string, busy time.Duration) error {
	f, err := os.CreateTemp(dir, ".ledger-*.db")
	if err != nil {
		return fmt.Errorf("create ledger file: %w", err)
	}
	tmp := f.Name()
	defer removeSQLiteFiles(tmp)
	err = f.Chmod(0o600) // SQLite copies this mode onto -wal and -shm
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = bootstrapSQLite(tmp, 0)
	}
	if err != nil {
		return fmt.Errorf("initialise ledger %s: %w", path, err)
	}
	err = os.Link(tmp, path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return nil // ours, or the one another process published first
	}
	// No hard links on this file system: create the file in place and
	// initialise it there, waiting on the busy timeout.
	return initInPlace(path, busy)
}

// initInPlace initialises an empty ledger.db where it is (a file made by
// hand or by an older ai-memory, or a file system without hard links).
// Concurrent openers wait on the busy timeout; the file is never replaced,
// so no process can be left writing to an unlinked copy.
func initInPlace(path string, busy time.Duration) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("create ledger file: %w", err)
	}
	st, err := f.Stat()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("create ledger file: %w", err)
	}
	if st.Size() > 0 {
		return nil
	}
	if err := bootstrapSQLite(path, busy); err != nil {
		return fmt.Errorf("initialise ledger %s: %w", path, err)
	}
	return nil
}

// bootstrapSQLite sets the page size of a brand-new (empty) file; it can
// only be chosen before the first table and before WAL mode.
func bootstrapSQLite(file string, busy time.Duration) error {
	dsn := "file:" + (&url.URL{Path: file}).EscapedPath() +
		"?_pragma=" + url.QueryEscape(fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Exec(fmt.Sprintf("PRAGMA page_size = %d; PRAGMA journal_mode = WAL; %s", pageSize, sqlCreateVersionTable))
	return err
}

func removeSQLiteFiles(p string) {
	for _, s := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(p + s)
	}
}
