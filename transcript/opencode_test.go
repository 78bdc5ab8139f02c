package transcript

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// opencodeDumps returns the captured store dumps (not schema.sql).
func opencodeDumps(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob("testdata/opencode/*/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	paths = slices.DeleteFunc(paths, func(p string) bool { return filepath.Base(p) == "schema.sql" })
	if len(paths) == 0 {
		t.Fatal("no opencode fixtures; run scripts/capture-fixtures.sh")
	}
	return paths
}

// opencodeGolden is the golden form of every session of one store.
type opencodeGolden struct {
	Sessions []opencodeGoldenSession `json:"sessions"`
}

type opencodeGoldenSession struct {
	Events []goldenEvent  `json:"events"`
	Losses []Loss         `json:"losses"`
	Cursor OpenCodeCursor `json:"cursor"`
}

// oldestFirst lists the checkout's sessions in creation order (ids grow
// with time), the order a reader of the fixture expects.
func (st opencodeStore) oldestFirst(t *testing.T) []Session {
	t.Helper()
	ss, err := opencodeSource{}.List(st.env, st.checkout, 0)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(ss, func(a, b Session) int { return strings.Compare(b.ID, a.ID) })
	return ss
}

// TestOpenCodeGolden reads every session of every captured store and
// compares with the golden file (go test ./transcript -update rewrites).
func TestOpenCodeGolden(t *testing.T) {
	for _, dump := range opencodeDumps(t) {
		t.Run(dump, func(t *testing.T) {
			st := loadOpenCodeFixture(t, dump)
			var g opencodeGolden
			for _, s := range st.oldestFirst(t) {
				r := readOpenCode(t, s, OpenCodeCursor{}, ReadOptions{})
				gs := opencodeGoldenSession{Events: toGolden(readResult{events: r.events}).Events,
					Losses: r.losses, Cursor: r.last}
				if gs.Losses == nil {
					gs.Losses = []Loss{}
				}
				g.Sessions = append(g.Sessions, gs)
			}
			got, err := json.MarshalIndent(g, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(bytes.ReplaceAll(got, []byte(st.home), []byte(opencodeFixtureHome)), '\n')
			gp := filepath.Join(filepath.Dir(dump), "golden", strings.TrimSuffix(filepath.Base(dump), ".sql")+".golden")
			if *update {
				writeFile(t, gp, string(got))
				return
			}
			want, err := os.ReadFile(gp)
			if err != nil {
				t.Fatalf("missing golden file (run go test ./transcript -update): %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s; run go test ./transcript -update and review the diff\n%s", dump, gp, got)
			}
		})
	}
}

// TestOpenCodeResumeFromEveryBatch: resuming from any batch's cursor gives
// exactly the events after it, so a kill -9 between batches neither loses
// nor repeats anything.
func TestOpenCodeResumeFromEveryBatch(t *testing.T) {
	for _, dump := range opencodeDumps(t) {
		t.Run(dump, func(t *testing.T) {
			st := loadOpenCodeFixture(t, dump)
			for _, s := range st.oldestFirst(t) {
				all := readOpenCode(t, s, OpenCodeCursor{}, ReadOptions{})
				want := eventKeys(all.events)
				small := readOpenCode(t, s, OpenCodeCursor{}, ReadOptions{BatchEvents: 1})
				var before []string
				for _, b := range small.batches {
					before = append(before, eventKeys(b.Events)...)
					rest := readOpenCode(t, s, b.Cursor, ReadOptions{})
					if got := append(slices.Clone(before), eventKeys(rest.events)...); !reflect.DeepEqual(got, want) {
						t.Errorf("resume from %s: %d events, want %d", b.Cursor, len(got), len(want))
					}
				}
				if !reflect.DeepEqual(before, want) {
					t.Fatal("batch size changed the events")
				}
				if again := readOpenCode(t, s, all.last, ReadOptions{}); len(again.batches) != 0 {
					t.Errorf("read from the final cursor emitted %d batches, want none", len(again.batches))
				}
			}
		})
	}
}

// TestOpenCodeDiscovery covers List, CreatedSince and the three answers of
// Find, over a real store plus rows added for the edge cases.
func TestOpenCodeDiscovery(t *testing.T) {
	dumps := opencodeDumps(t)
	st := loadOpenCodeFixture(t, dumps[0])
	src := opencodeSource{}
	ss := st.oldestFirst(t)
	if len(ss) == 0 {
		t.Fatal("fixture has no session in the checkout")
	}
	// A subagent session (parent_id set) and a session of another directory
	// are not sessions of the checkout.
	other := filepath.Join(st.home, "elsewhere")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	st.copySession(t, ss[0].ID, "ses_child", "parent_id = '"+ss[0].ID+"'")
	st.copySession(t, ss[0].ID, "ses_other", "directory = '"+other+"'")
	st.copySession(t, ss[0].ID, "ses_archived", "time_archived = time_updated")
	if got := st.oldestFirst(t); len(got) != len(ss) {
		t.Errorf("List = %d sessions, want %d (child and other-directory sessions excluded)", len(got), len(ss))
	}
	newest := ss[len(ss)-1]
	if got, _ := src.CreatedSince(st.env, st.checkout, newest.ModTime.Add(time.Hour)); len(got) != 0 {
		t.Errorf("CreatedSince(future) = %d sessions, want 0", len(got))
	}
	if got, _ := src.CreatedSince(st.env, st.checkout, newest.ModTime); len(got) == 0 || got[0].ID != newest.ID {
		t.Errorf("CreatedSince(newest) = %v, want %s first", got, newest.ID)
	}
	if got, _ := src.List(st.env, filepath.Join(st.home, "missing"), 0); len(got) != 0 {
		t.Errorf("List of an unresolvable checkout = %v, want none (fail closed)", got)
	}

	garbage := newOpenCodeStore(t)
	writeFile(t, garbage.db, "not a database at all, just text that is long enough to be a header")
	empty := newOpenCodeStore(t)
	cases := []struct {
		name string
		env  Env
		id   string
		want Existence
	}{
		{"present", st.env, newest.ID, Present},
		{"absent", st.env, "ses_nope", Absent},
		{"no store yet", empty.env, newest.ID, Absent},
		{"not a database", garbage.env, newest.ID, Unknown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, got, err := src.Find(c.env, c.id)
			if got != c.want {
				t.Fatalf("Find = %v (%v), want %v", got, err, c.want)
			}
			if got == Present && (s.Path != st.db || s.Cwd != st.checkout) {
				t.Errorf("Find = %+v, want path %s cwd %s", s, st.db, st.checkout)
			}
			if got == Unknown && err == nil {
				t.Error("Unknown without an error")
			}
		})
	}
}

func TestOpenCodeStoreRoot(t *testing.T) {
	env := func(xdg string) Env {
		return Env{Home: "/h", Getenv: func(k string) string {
			if k == "XDG_DATA_HOME" {
				return xdg
			}
			return ""
		}}
	}
	for _, c := range []struct{ xdg, want string }{
		{"", filepath.Join("/h", ".local", "share", "opencode")},
		{"  ", filepath.Join("/h", ".local", "share", "opencode")},
		{"/x", filepath.Join("/x", "opencode")},
	} {
		if got := (opencodeSource{}).StoreRoot(env(c.xdg)); got != c.want {
			t.Errorf("StoreRoot(XDG_DATA_HOME=%q) = %s, want %s", c.xdg, got, c.want)
		}
	}
}

func TestOpenCodeCursor(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    OpenCodeCursor
		wantErr bool
	}{
		{"", OpenCodeCursor{}, false},
		{`{"updated":5,"id":"prt_a"}`, OpenCodeCursor{Updated: 5, ID: "prt_a"}, false},
		{`{"updated":-1,"id":"prt_a"}`, OpenCodeCursor{}, true},
		{`{"updated":5}`, OpenCodeCursor{}, true},
		{`{"path":"x","offset":3}`, OpenCodeCursor{}, false},
		{`not json`, OpenCodeCursor{}, true},
	} {
		got, err := ParseOpenCodeCursor(c.in)
		if (err != nil) != c.wantErr || got != c.want {
			t.Errorf("ParseOpenCodeCursor(%q) = %v, %v; want %v, err %v", c.in, got, err, c.want, c.wantErr)
		}
		if err == nil && got.String() != "" {
			if back, _ := ParseOpenCodeCursor(got.String()); back != got {
				t.Errorf("round trip of %v = %v", got, back)
			}
		}
	}
}
