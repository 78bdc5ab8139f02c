package transcript

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

const grokFixture = "testdata/grok/1.0.6/chat_history.jsonl"

// grokStore puts the fixture into a Grok store under a temp home, for cwd.
func grokStore(t *testing.T) (Env, string, Session) {
	t.Helper()
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cwd := filepath.Join(home, "my repo+x")
	if err := os.MkdirAll(cwd, 0o700); err != nil {
		t.Fatal(err)
	}
	env := Env{Home: home, Getenv: func(string) string { return "" }}
	id := "0b7c7a52-1f9e-4a35-9d1c-51a3c4e1d2f0"
	data, err := os.ReadFile(grokFixture)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, ".grok", "sessions", GrokCwdDir(cwd), id, grokChatFile)
	writeFile(t, path, string(data))
	ss, err := GrokSource().List(env, cwd, 0)
	if err != nil || len(ss) != 1 || ss[0].ID != id || ss[0].Path != path {
		t.Fatalf("List = %+v, %v", ss, err)
	}
	return env, cwd, ss[0]
}

func TestGrokCwdDir(t *testing.T) {
	for in, want := range map[string]string{
		"/home/u/my repo+x": "%2Fhome%2Fu%2Fmy%20repo%2Bx",
		"/a/b-c_d.e~f":      "%2Fa%2Fb-c_d.e~f",
		"/é":                "%2F%C3%A9",
	} {
		if got := GrokCwdDir(in); got != want {
			t.Errorf("GrokCwdDir(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestGrokGolden reads the built fixture and compares with its golden file
// (go test ./transcript -run TestGrokGolden -update rewrites).
func TestGrokGolden(t *testing.T) {
	env, cwd, s := grokStore(t)
	var r readResult
	err := GrokSource().Read(context.Background(), s, "", ReadOptions{BatchEvents: 3}, func(b Batch) error {
		r.events = append(r.events, b.Events...)
		r.losses = append(r.losses, b.Losses...)
		r.cursors = append(r.cursors, b.Cursor)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(toGolden(r), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	gp := filepath.Join("testdata", "grok", "1.0.6", "golden", "chat_history.golden")
	if *update {
		writeFile(t, gp, string(got))
	} else if want, err := os.ReadFile(gp); err != nil || !bytes.Equal(got, want) {
		t.Errorf("golden mismatch (go test ./transcript -run TestGrokGolden -update): %v\n%s", err, got)
	}
	// Find by id from anywhere, with the cwd decoded from the folder name.
	f, ex, err := GrokSource().Find(env, s.ID)
	if ex != Present || err != nil || f.Cwd != cwd || f.Path != s.Path {
		t.Errorf("Find = %+v, %v, %v", f, ex, err)
	}
	if ss, _ := GrokSource().CreatedSince(env, cwd, time.Now().Add(time.Hour)); len(ss) != 0 {
		t.Errorf("CreatedSince(future) = %v", ss)
	}
}

// TestGrokLongCwd: a cwd whose encoding is over 255 bytes lives in a
// slug-hash folder with a .cwd file.
func TestGrokLongCwd(t *testing.T) {
	home, _ := filepath.EvalSymlinks(t.TempDir())
	cwd := filepath.Join(home, string(bytes.Repeat([]byte("é"), 60)))
	if err := os.MkdirAll(cwd, 0o700); err != nil {
		t.Fatal(err)
	}
	env := Env{Home: home, Getenv: func(string) string { return "" }}
	group := filepath.Join(home, ".grok", "sessions", "slug-0123456789abcdef")
	writeFile(t, filepath.Join(group, ".cwd"), cwd+"\n")
	writeFile(t, filepath.Join(group, "0b7c7a52-1f9e-4a35-9d1c-51a3c4e1d2f0", grokChatFile), `{"type":"user","content":[]}`+"\n")
	if ss, err := GrokSource().List(env, cwd, 0); err != nil || len(ss) != 1 {
		t.Errorf("List = %v, %v", ss, err)
	}
	if _, ex, _ := GrokSource().Find(env, "0b7c7a52-1f9e-4a35-9d1c-51a3c4e1d2f0"); ex != Present {
		t.Errorf("Find = %v", ex)
	}
}

// TestGrokSymlinkedCwd: a session Grok filed under a symlinked spelling
// of the checkout is still the checkout's.
func TestGrokSymlinkedCwd(t *testing.T) {
	env, cwd, s := grokStore(t)
	link := filepath.Join(env.Home, "link")
	if err := os.Symlink(cwd, link); err != nil {
		t.Skip(err)
	}
	moved := filepath.Join(env.Home, ".grok", "sessions", GrokCwdDir(link), s.ID, grokChatFile)
	if err := os.MkdirAll(filepath.Dir(filepath.Dir(moved)), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Dir(s.Path), filepath.Dir(moved)); err != nil {
		t.Fatal(err)
	}
	if ss, err := GrokSource().List(env, link, 0); err != nil || len(ss) != 1 || ss[0].Path != moved || ss[0].Cwd != cwd {
		t.Errorf("List(link) = %+v, %v", ss, err)
	}
}

// Grok's bash header line becomes metadata; other text stays whole.
func TestGrokBashStatus(t *testing.T) {
	for _, tc := range []struct {
		in, want, signal string
		exit             int // -1: none
		truncated        bool
	}{
		{"exit: 0\nREADME.md", "README.md", "", 0, false},
		{"exit: 2\n", noOutput, "", 2, false},
		{"Exit code: 1\nboom", "boom", "", 1, false},
		{"exit: killed (timeout)\npartial", "partial", "timeout", -1, false},
		{"exit: 0 [truncated: showing first/last 1 KB of 9 KB - full output at: /tmp/o] [signal=SIGPIPE]\nx", "x", "SIGPIPE", 0, true},
		{"exit: soon\nx", "exit: soon\nx", "", -1, false},
		{"exit: 0 [other]\nx", "exit: 0 [other]\nx", "", -1, false},
		{"README.md", "README.md", "", -1, false},
	} {
		got, rep := grokBashStatus(tc.in)
		exit := -1
		if rep.exitCode != nil {
			exit = *rep.exitCode
		}
		if got != tc.want || exit != tc.exit || rep.signal != tc.signal || rep.truncated != tc.truncated {
			t.Errorf("grokBashStatus(%q) = %q, %d, %q, %v; want %q, %d, %q, %v", tc.in, got, exit, rep.signal, rep.truncated, tc.want, tc.exit, tc.signal, tc.truncated)
		}
	}
}
