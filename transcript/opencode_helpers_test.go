package transcript

import (
	"database/sql"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// opencodeFixtureHome is the HOME the capture scrubbed host paths to.
const opencodeFixtureHome = "/home/user"

// opencodeStore is a store built for one test: HOME, the checkout inside
// it (the fixtures' cwd) and the database.
type opencodeStore struct {
	env      Env
	home     string
	checkout string
	db       string
}

// newOpenCodeStore creates an empty HOME with the checkout directory and
// the store path (no database yet).
func newOpenCodeStore(t testing.TB) opencodeStore {
	t.Helper()
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	st := opencodeStore{home: home, checkout: filepath.Join(home, "project"),
		env: Env{Home: home, Getenv: func(string) string { return "" }}}
	st.db = opencodeSource{}.dbPath(st.env)
	for _, d := range []string{st.checkout, filepath.Dir(st.db)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// loadOpenCodeFixture builds a store from a captured dump (SQL text), with
// the scrubbed HOME put back to the test's HOME so the checkout matches.
func loadOpenCodeFixture(t testing.TB, dump string) opencodeStore {
	t.Helper()
	st := newOpenCodeStore(t)
	sqlText, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	st.exec(t, strings.ReplaceAll(string(sqlText), opencodeFixtureHome, st.home))
	return st
}

// writer opens a read-write WAL connection, as OpenCode does (test only:
// production code never writes to the store).
func (st opencodeStore) writer(t testing.TB) *sql.DB {
	t.Helper()
	dsn := "file:" + (&url.URL{Path: filepath.ToSlash(st.db)}).EscapedPath() +
		"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

func (st opencodeStore) exec(t testing.TB, q string, args ...any) {
	t.Helper()
	db := st.writer(t)
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("exec: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// opencodeRead is everything one ReadFrom produced.
type opencodeRead struct {
	events  []Event
	losses  []Loss
	batches []OpenCodeBatch
	last    OpenCodeCursor
}

func readOpenCode(t testing.TB, s Session, from OpenCodeCursor, opt ReadOptions) opencodeRead {
	t.Helper()
	r := opencodeRead{last: from}
	err := opencodeSource{}.ReadFrom(t.Context(), s, from, opt, func(b OpenCodeBatch) error {
		r.events = append(r.events, b.Events...)
		r.losses = append(r.losses, b.Losses...)
		r.batches = append(r.batches, b)
		r.last = b.Cursor
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// opencodeSchema is the real schema of the tables the reader uses.
func opencodeSchema(t testing.TB) string {
	t.Helper()
	paths, err := filepath.Glob("testdata/opencode/*/schema.sql")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no opencode schema.sql fixture: %v", err)
	}
	b, err := os.ReadFile(paths[len(paths)-1])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// copySession inserts a copy of session from as id with set applied (SQL
// SET clause), for discovery edge cases.
func (st opencodeStore) copySession(t testing.TB, from, id, set string) {
	t.Helper()
	db := st.writer(t)
	for _, q := range []string{
		`CREATE TEMP TABLE s AS SELECT * FROM session WHERE id = '` + from + `'`,
		`UPDATE s SET id = '` + id + `', ` + set,
		`INSERT INTO session SELECT * FROM s`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
}
