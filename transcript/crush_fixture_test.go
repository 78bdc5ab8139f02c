package transcript

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite"
)

// crushSchemaFile is Crush's schema as its migrations create it, shared
// with the fake Crush (harness/harnesstest embeds it).
const crushSchemaFile = "../harness/harnesstest/crush_schema.sql"

// crushFixture is a home with Crush projects built from fixture SQL.
type crushFixture struct {
	home string
	env  Env
}

// newCrushFixture makes an empty home (no global data dir yet).
func newCrushFixture(t testing.TB) *crushFixture {
	t.Helper()
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &crushFixture{home: home, env: Env{Home: home, Getenv: func(string) string { return "" }}}
}

// project builds <home>/<name>/.crush/crush.db from the schema and the
// data files (relative to testdata/crush) and lists it in projects.json,
// as Crush's start does. It returns the checkout.
func (f *crushFixture) project(t testing.TB, name string, data ...string) string {
	t.Helper()
	checkout := filepath.Join(f.home, name)
	dataDir := filepath.Join(checkout, ".crush")
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	db := crushWriterDB(t, filepath.Join(dataDir, "crush.db"))
	defer db.Close()
	for _, p := range append([]string{crushSchemaFile}, data...) {
		if p != crushSchemaFile {
			p = filepath.Join("testdata", "crush", p)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(string(b)); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	f.register(t, checkout, dataDir)
	return checkout
}

// register adds the project to projects.json.
func (f *crushFixture) register(t testing.TB, checkout, dataDir string) {
	t.Helper()
	path := filepath.Join(crushSource{}.StoreRoot(f.env), "projects.json")
	var list struct {
		Projects []crushProject `json:"projects"`
	}
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &list); err != nil {
			t.Fatal(err)
		}
	}
	list.Projects = append(list.Projects, crushProject{Path: checkout, DataDir: dataDir})
	b, _ := json.Marshal(list)
	writeFile(t, path, string(b))
}

// crushWriterDB opens a database read-write in WAL mode, as Crush does.
func crushWriterDB(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: filepath.ToSlash(path)}).EscapedPath()+
		"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	return db
}

// readCrush reads s from c in small batches.
func readCrush(t testing.TB, s Session, c CrushCursor) (events []Event, losses []Loss, last CrushCursor) {
	t.Helper()
	last = c
	err := crushSource{}.ReadFrom(context.Background(), s, c, ReadOptions{BatchEvents: 3}, func(b CrushBatch) error {
		events = append(events, b.Events...)
		losses = append(losses, b.Losses...)
		last = b.Cursor
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return events, losses, last
}

func crushKeys(events []Event) []string {
	var out []string
	for _, e := range events {
		out = append(out, fmt.Sprintf("%s/%d/%s/%s", e.RecordID, e.BlockIndex, e.Kind, e.Content))
	}
	return out
}
