package transcript

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestCrushGolden reads every session of each fixture store
// (testdata/crush/<version>/*.sql but other.sql, the second project beside
// it), ordered by id, and compares with golden/<name>.golden
// (go test ./transcript -run TestCrushGolden -update rewrites).
func TestCrushGolden(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "crush", "*", "*.sql"))
	paths = slices.DeleteFunc(paths, func(p string) bool { return filepath.Base(p) == "other.sql" })
	if len(paths) == 0 {
		t.Fatal("no crush fixtures")
	}
	for _, p := range paths {
		rel, _ := filepath.Rel(filepath.Join("testdata", "crush"), p)
		t.Run(rel, func(t *testing.T) { crushGolden(t, rel) })
	}
}

func crushGolden(t *testing.T, rel string) {
	f := newCrushFixture(t)
	app := f.project(t, "app", rel)
	if other := filepath.Join(filepath.Dir(rel), "other.sql"); fileExists(filepath.Join("testdata", "crush", other)) {
		f.project(t, "other", other)
	}
	ss, err := crushSource{}.List(f.env, app, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Crush's triggers stamp sessions.updated_at with the wall clock on every
	// message insert, so the fixture's order is by id.
	slices.SortFunc(ss, func(a, b Session) int { return strings.Compare(a.ID, b.ID) })
	type session struct {
		ID     string        `json:"id"`
		Events []goldenEvent `json:"events"`
		Losses []Loss        `json:"losses"`
		Cursor CrushCursor   `json:"cursor"`
	}
	var g []session
	for _, s := range ss {
		ev, losses, cur := readCrush(t, s, CrushCursor{})
		gs := session{ID: s.ID, Events: toGolden(readResult{events: ev}).Events, Losses: losses, Cursor: cur}
		if gs.Losses == nil {
			gs.Losses = []Loss{}
		}
		g = append(g, gs)
	}
	got, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	gp := filepath.Join("testdata", "crush", filepath.Dir(rel), "golden", strings.TrimSuffix(filepath.Base(rel), ".sql")+".golden")
	if *update {
		writeFile(t, gp, string(got))
		return
	}
	want, err := os.ReadFile(gp)
	if err != nil {
		t.Fatalf("missing golden file (run go test ./transcript -update): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("golden mismatch (go test ./transcript -run TestCrushGolden -update):\n%s", got)
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestCrushDiscovery: sessions of the checkout only (not the other
// project's, not sub-agent sessions), newest first; Find through
// projects.json; a checkout Crush never listed still has its .crush.
func TestCrushDiscovery(t *testing.T) {
	f := newCrushFixture(t)
	src := crushSource{}
	if ss, err := src.List(f.env, f.home, 0); err != nil || len(ss) != 0 {
		t.Fatalf("no store: %v, %v", ss, err)
	}
	app := f.project(t, "app", "0.90.0/app.sql")
	other := f.project(t, "other", "0.90.0/other.sql")
	ss, err := src.List(f.env, app, 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range ss {
		ids = append(ids, s.ID)
		if s.Cwd != app || s.Path != filepath.Join(app, ".crush", "crush.db") || s.Size <= 0 {
			t.Errorf("session %+v", s)
		}
	}
	slices.Sort(ids)
	want := []string{"5b0d2b4e-6f0c-4f7e-9f5e-0c1b2a3d4e51", "9a8b7c6d-1e2f-4a3b-8c4d-5e6f7a8b9c01"}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("List = %v, want %v", ids, want)
	}
	// Crush's triggers stamp sessions.updated_at on every message insert.
	if ss, _ := src.CreatedSince(f.env, app, time.Now().Add(-time.Minute)); len(ss) != 2 {
		t.Errorf("CreatedSince(a minute ago) = %v", ss)
	}
	if ss, _ := src.CreatedSince(f.env, app, time.Now().Add(time.Hour)); len(ss) != 0 {
		t.Errorf("CreatedSince(in an hour) = %v", ss)
	}
	s, ex, err := src.Find(f.env, "77777777-7777-4777-8777-777777777777")
	if ex != Present || err != nil || s.Cwd != other {
		t.Errorf("Find(other project's session) = %+v, %v, %v", s, ex, err)
	}
	// projects.json gone: the checkout's own .crush is still read.
	os.Remove(filepath.Join(src.StoreRoot(f.env), "projects.json"))
	if ss, _ := src.List(f.env, app, 0); len(ss) != 2 {
		t.Errorf("unlisted checkout: %v", ss)
	}
	if _, ex, err := src.Find(f.env, want[0]); ex != Absent || err != nil {
		t.Errorf("Find without a project list = %v, %v", ex, err)
	}
}

// TestCrushUnfinished: a streaming assistant message holds the import back
// until it has its finish part, or until it is stale.
func TestCrushUnfinished(t *testing.T) {
	f := newCrushFixture(t)
	app := f.project(t, "app", "0.90.0/other.sql")
	db := crushWriterDB(t, filepath.Join(app, ".crush", "crush.db"))
	defer db.Close()
	now := time.Now().Unix()
	mustExec(t, db, `INSERT INTO messages (id, session_id, role, parts, created_at, updated_at)
		VALUES ('s1', '77777777-7777-4777-8777-777777777777', 'assistant', '[{"type":"text","data":{"text":"stream"}}]', ?, ?),
		('s2', '77777777-7777-4777-8777-777777777777', 'user', '[{"type":"text","data":{"text":"next"}}]', ?, ?)`, now, now, now, now)
	ss, _ := crushSource{}.List(f.env, app, 0)
	ev, _, c := readCrush(t, ss[0], CrushCursor{})
	if len(ev) != 1 || ev[0].Content != "other project" {
		t.Fatalf("read past a streaming message: %v", crushKeys(ev))
	}
	defer func(old func() time.Time) { crushNow = old }(crushNow)
	crushNow = func() time.Time { return time.Now().Add(crushStaleAfter + time.Minute) }
	ev, _, _ = readCrush(t, ss[0], c)
	if got := crushKeys(ev); len(got) != 2 || !strings.Contains(got[0], "stream") {
		t.Errorf("stale message not imported: %v", got)
	}
}

// TestCrushConcurrentWriter reads while another connection keeps writing
// (Crush running): every read succeeds, and reads resumed from each
// cursor add up to one read of the final database, without duplicates.
func TestCrushConcurrentWriter(t *testing.T) {
	f := newCrushFixture(t)
	app := f.project(t, "app", "0.90.0/other.sql")
	db := crushWriterDB(t, filepath.Join(app, ".crush", "crush.db"))
	defer db.Close()
	ss, _ := crushSource{}.List(f.env, app, 0)
	s := ss[0]
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 300 {
			if _, err := db.Exec(`INSERT INTO messages (id, session_id, role, parts, created_at, updated_at)
				VALUES (?, ?, 'user', ?, 1, 1)`, "w"+strings.Repeat("0", 4)+string(rune('a'+i%26))+time.Now().Format("150405.000000000"),
				s.ID, `[{"type":"text","data":{"text":"line"}}]`); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	var all []string
	c := CrushCursor{}
	for range 50 {
		ev, _, next := readCrush(t, s, c)
		all = append(all, crushKeys(ev)...)
		c = next
	}
	wg.Wait()
	ev, _, _ := readCrush(t, s, c)
	all = append(all, crushKeys(ev)...)
	one, _, _ := readCrush(t, s, CrushCursor{})
	if want := crushKeys(one); !reflect.DeepEqual(all, want) || len(want) != 301 {
		t.Errorf("incremental reads gave %d events, one read %d (want 301)", len(all), len(want))
	}
}

func TestCrushCursor(t *testing.T) {
	for _, s := range []string{"", `{"row":3,"n":10}`} {
		c, err := ParseCrushCursor(s)
		if err != nil || c.String() != s {
			t.Errorf("round trip %q: %v %q", s, err, c.String())
		}
	}
	for _, s := range []string{"{", `{"row":-1}`, `{"n":-2}`} {
		if _, err := ParseCrushCursor(s); err == nil {
			t.Errorf("ParseCrushCursor(%q) accepted", s)
		}
	}
	if c := crushCursorFrom(Cursor(`{"updated":1,"id":"prt_x"}`)); c != (CrushCursor{}) {
		t.Errorf("another source's cursor: %+v", c)
	}
}

// Crush's bash framing becomes metadata; other text stays whole.
func TestCrushBashStatus(t *testing.T) {
	for _, tc := range []struct {
		in, meta, want string
		exit           int     // -1: none
		wall           float64 // -1: none
		err            string
	}{
		{"README.md", `{"start_time":1000,"end_time":3500,"output":"README.md"}`, "README.md", -1, 2.5, ""},
		{"\nboom\nExit code 2", "", "\nboom", 2, -1, ""},
		{"out\n\n<cwd>/w</cwd>", "", "out", -1, -1, ""},
		{"x\nCommand was aborted before completion", "", "x", -1, -1, "Command was aborted before completion"},
		{"no output", "", noOutput, -1, -1, ""},
		{"Exit code soon", "{bad", "Exit code soon", -1, -1, ""},
		{"a\n\n<cwd>/w</cwd>\nmore", "", "a\n\n<cwd>/w</cwd>\nmore", -1, -1, ""},
	} {
		got, rep := crushBashStatus(tc.in, tc.meta)
		exit, wall := -1, -1.0
		if rep.exitCode != nil {
			exit = *rep.exitCode
		}
		if rep.wallTime != nil {
			wall = *rep.wallTime
		}
		if got != tc.want || exit != tc.exit || wall != tc.wall || rep.err != tc.err {
			t.Errorf("crushBashStatus(%q) = %q, %d, %v, %q; want %q, %d, %v, %q", tc.in, got, exit, wall, rep.err, tc.want, tc.exit, tc.wall, tc.err)
		}
	}
}
