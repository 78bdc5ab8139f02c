package transcript

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const kiroFixture = "testdata/kiro/2.16.2/sessions"

// kiroStoreFixture copies the fixture tree into a temp ~/.kiro with its
// CHECKOUT placeholders pointing at a temp checkout.
func kiroStoreFixture(t *testing.T) (Env, string) {
	t.Helper()
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	checkout := filepath.Join(home, "repo")
	if err := os.MkdirAll(checkout, 0o700); err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(kiroFixture, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(kiroFixture, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		writeFile(t, filepath.Join(home, ".kiro", "sessions", rel), strings.ReplaceAll(string(b), "CHECKOUT", checkout))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return Env{Home: home, Getenv: func(string) string { return "" }}, checkout
}

// TestKiroGolden: both engines' sessions are listed for the checkout; the
// v2 one is read as the golden file says (-update rewrites), the v3 one
// yields losses only.
func TestKiroGolden(t *testing.T) {
	env, checkout := kiroStoreFixture(t)
	ss, err := KiroSource().List(env, checkout, 0)
	if err != nil || len(ss) != 2 {
		t.Fatalf("List = %+v, %v", ss, err)
	}
	got := map[string]goldenFile{}
	for _, s := range ss {
		var r readResult
		err := KiroSource().Read(context.Background(), s, "", ReadOptions{BatchEvents: 3}, func(b Batch) error {
			r.events = append(r.events, b.Events...)
			r.losses = append(r.losses, b.Losses...)
			r.cursors = append(r.cursors, b.Cursor)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		g := toGolden(r)
		g.Offset = 0
		got[s.ID] = g
		if f, ex, err := KiroSource().Find(env, s.ID); ex != Present || err != nil || f.Path != s.Path {
			t.Errorf("Find(%s) = %+v, %v, %v", s.ID, f, ex, err)
		}
	}
	b, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	gp := filepath.Join("testdata", "kiro", "2.16.2", "golden", "sessions.golden")
	if *update {
		writeFile(t, gp, string(b))
	} else if want, err := os.ReadFile(gp); err != nil || !bytes.Equal(b, want) {
		t.Errorf("golden mismatch (go test ./transcript -run TestKiroGolden -update): %v\n%s", err, b)
	}
	if ss, _ := KiroSource().List(env, env.Home, 0); len(ss) != 0 {
		t.Errorf("another checkout lists %v", ss)
	}
}

// Kiro's shell report (a JSON part) becomes exit_code and its output;
// other JSON parts stay compacted in the content.
func TestKiroShellReport(t *testing.T) {
	for _, tc := range []struct {
		data string
		want []string
		exit int // -1: not a report
	}{
		{`{"exit_status":"0"}`, nil, 0},
		{`{"exit_status":"2","stdout":"out","stderr":"err"}`, []string{"out", "err"}, 2},
		{`{"stdout":"out","exit_status":"1","stderr":""}`, []string{"out"}, 1},
		{`{"exit_status":0}`, nil, -1},
		{`{"exit_status":"0","other":1}`, nil, -1},
		{`{"stdout":"x"}`, nil, -1},
		{`[1]`, nil, -1},
	} {
		var rep execReport
		got, ok := kiroShellReport([]byte(tc.data), &rep)
		exit := -1
		if ok && rep.exitCode != nil {
			exit = *rep.exitCode
		}
		if exit != tc.exit || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("kiroShellReport(%s) = %q, %d; want %q, %d", tc.data, got, exit, tc.want, tc.exit)
		}
	}
}
