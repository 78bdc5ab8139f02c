package transcript

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const (
	agyConv  = "0b7c7a52-1f9e-4a35-9d1c-51a3c4e1d2f0"
	agyOther = "11111111-2222-4333-8444-555555555555"
)

// agyMeta is a trajectory_metadata_blob payload naming workspace: field 1
// holding a message whose field 1 is the URI (plus a varint field before
// it, to be skipped), then, when created is not zero, field 2 holding a
// Timestamp (seconds, nanos).
func agyMeta(uri string, created ...time.Time) []byte {
	inner := append([]byte{0x0a, byte(len(uri))}, uri...)
	b := append([]byte{0x10, 0x96, 0x01, 0x0a, byte(len(inner))}, inner...)
	for _, c := range created {
		ts := append(protoVarint(0x08, uint64(c.Unix())), protoVarint(0x10, uint64(c.Nanosecond()))...)
		b = append(append(b, 0x12, byte(len(ts))), ts...)
	}
	return b
}

// protoVarint is a varint field: its key byte, then v.
func protoVarint(key byte, v uint64) []byte {
	out := []byte{key}
	for v >= 0x80 {
		out = append(out, byte(v)|0x80)
		v >>= 7
	}
	return append(out, byte(v))
}

// agyOpened is when the fixture's conversations were created: one second
// before the opening prompt of history.jsonl.
var agyOpened = time.UnixMilli(1767225599000)

// agyStore builds ~/.gemini/antigravity-cli with two conversations (one in
// checkout, one elsewhere), created at the given times (none: no creation
// time recorded), and the fixture history.
func agyStore(t *testing.T, created ...time.Time) (Env, string) {
	t.Helper()
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	checkout := filepath.Join(home, "repo")
	if err := os.MkdirAll(checkout, 0o700); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(home, ".gemini", "antigravity-cli")
	for id, ws := range map[string]string{agyConv: checkout, agyOther: filepath.Join(home, "elsewhere")} {
		agyConversation(t, root, id, ws, created...)
	}
	b, err := os.ReadFile("testdata/antigravity/1.1.7/history.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	h := strings.NewReplacer("CHECKOUT", checkout, `"OTHER"`, `"`+agyOther+`"`, `"CONV"`, `"`+agyConv+`"`).Replace(string(b))
	writeFile(t, filepath.Join(root, "history.jsonl"), h)
	return Env{Home: home, Getenv: func(string) string { return "" }}, checkout
}

// agyConversation writes conversations/<id>.db of workspace ws.
func agyConversation(t *testing.T, root, id, ws string, created ...time.Time) {
	t.Helper()
	path := filepath.Join(root, "conversations", id+".db")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	db := crushWriterDB(t, path)
	mustExec(t, db, `CREATE TABLE trajectory_metadata_blob (id TEXT PRIMARY KEY, data BLOB)`)
	mustExec(t, db, `INSERT INTO trajectory_metadata_blob VALUES ('main', ?)`, agyMeta("file://"+filepath.ToSlash(ws), created...))
	mustExec(t, db, `PRAGMA wal_checkpoint(TRUNCATE)`)
	db.Close()
}

// agyRead reads session s from from; it returns the texts, the losses and
// the cursor reached.
func agyRead(t *testing.T, s Session, from Cursor) (texts, losses []string, last Cursor) {
	t.Helper()
	err := AntigravitySource().Read(context.Background(), s, from, ReadOptions{}, func(b Batch) error {
		for _, e := range b.Events {
			texts = append(texts, e.Content)
		}
		for _, l := range b.Losses {
			losses = append(losses, l.Reason)
		}
		last = b.Cursor
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return texts, losses, last
}

// TestAntigravityOpening: the unlabelled opening prompt is the
// conversation's when it was created within 5 s and no other conversation
// of the checkout was created nearer to the prompt.
func TestAntigravityOpening(t *testing.T) {
	const opening = "opening prompt, logged before the id exists"
	third := "33333333-2222-4333-8444-555555555555"
	for _, tt := range []struct {
		name    string
		created []time.Time
		rival   time.Time // a third conversation of the checkout (zero: none)
		want    bool
	}{
		{"no creation time", nil, time.Time{}, false},
		{"created 1 s before", []time.Time{agyOpened}, time.Time{}, true},
		{"created 6 s before", []time.Time{agyOpened.Add(-5 * time.Second)}, time.Time{}, false},
		{"another created later, farther", []time.Time{agyOpened}, agyOpened.Add(3 * time.Second), true},
		{"another created nearer", []time.Time{agyOpened}, agyOpened.Add(1500 * time.Millisecond), false},
		{"another created as near", []time.Time{agyOpened}, agyOpened.Add(2 * time.Second), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env, checkout := agyStore(t, tt.created...)
			if !tt.rival.IsZero() {
				agyConversation(t, filepath.Join(env.Home, ".gemini", "antigravity-cli"), third, checkout, tt.rival)
			}
			s, ex, err := AntigravitySource().Find(env, agyConv)
			if ex != Present || err != nil {
				t.Fatal(ex, err)
			}
			texts, losses, _ := agyRead(t, s, "")
			if got := len(texts) > 0 && texts[0] == opening; got != tt.want {
				t.Errorf("opening attributed = %v, want %v (%q)", got, tt.want, texts)
			}
			if noted := strings.Contains(strings.Join(losses, "\n"), "not attributed"); noted != (len(tt.created) == 0) {
				t.Errorf("losses %q", losses)
			}
		})
	}
}

func TestAntigravityRead(t *testing.T) {
	env, checkout := agyStore(t)
	src := AntigravitySource()
	ss, err := src.List(env, checkout, 0)
	if err != nil || len(ss) != 1 || ss[0].ID != agyConv || ss[0].Cwd != checkout {
		t.Fatalf("List = %+v, %v", ss, err)
	}
	var texts, losses []string
	var last Cursor
	read := func(from Cursor) {
		texts, losses = nil, nil
		err := src.Read(context.Background(), ss[0], from, ReadOptions{}, func(b Batch) error {
			for _, e := range b.Events {
				texts = append(texts, e.Content)
			}
			for _, l := range b.Losses {
				losses = append(losses, l.Reason)
			}
			last = b.Cursor
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	read("")
	if want := []string{"list the files RUN_TOOL", "thanks"}; !reflect.DeepEqual(texts, want) {
		t.Errorf("imported %q, want %q", texts, want)
	}
	if len(losses) != 6 {
		t.Errorf("losses %q: want the 2 session notes and 4 skipped entries", losses)
	}
	if done, total := src.Progress(ss[0], last); done != total || total == 0 {
		t.Errorf("progress %d of %d", done, total)
	}
	read(last)
	if len(texts)+len(losses) != 0 {
		t.Errorf("replay from the end: %q %q", texts, losses)
	}
	if s, ex, err := src.Find(env, agyOther); ex != Present || err != nil || !strings.HasSuffix(s.Cwd, "elsewhere") {
		t.Errorf("Find(other) = %+v %v %v", s, ex, err)
	}
	if _, ex, err := src.Find(env, "22222222-2222-4333-8444-555555555555"); ex != Absent || err != nil {
		t.Errorf("Find(missing) = %v %v", ex, err)
	}
}

func TestProtobufField(t *testing.T) {
	for _, tt := range []struct {
		msg  []byte
		want string
		ok   bool
	}{
		{agyMeta("file:///x"), "\x0a\x09file:///x", true},
		{[]byte{0x0a, 0x05, 'a'}, "", false},            // length past the end
		{[]byte{0x0b}, "", false},                       // wire type 3 (group) is not walked
		{[]byte{0x08, 0x80}, "", false},                 // truncated varint
		{[]byte{0x12, 0x01, 'z', 0x0a, 0x00}, "", true}, // empty field 1 after field 2
	} {
		got, ok := protobufField(tt.msg, 1)
		if string(got) != tt.want || ok != tt.ok {
			t.Errorf("protobufField(%x) = %q, %v; want %q, %v", tt.msg, got, ok, tt.want, tt.ok)
		}
	}
}
