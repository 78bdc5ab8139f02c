package transcript

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const (
	agyConv  = "0b7c7a52-1f9e-4a35-9d1c-51a3c4e1d2f0"
	agyOther = "11111111-2222-4333-8444-555555555555"
)

// agyMeta is a trajectory_metadata_blob payload naming workspace: field 1
// holding a message whose field 1 is the URI (plus a varint field before
// it, to be skipped).
func agyMeta(uri string) []byte {
	inner := append([]byte{0x0a, byte(len(uri))}, uri...)
	return append([]byte{0x10, 0x96, 0x01, 0x0a, byte(len(inner))}, inner...)
}

// agyStore builds ~/.gemini/antigravity-cli with two conversations (one in
// checkout, one elsewhere) and the fixture history.
func agyStore(t *testing.T) (Env, string) {
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
		path := filepath.Join(root, "conversations", id+".db")
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		db := crushWriterDB(t, path)
		mustExec(t, db, `CREATE TABLE trajectory_metadata_blob (id TEXT PRIMARY KEY, data BLOB)`)
		mustExec(t, db, `INSERT INTO trajectory_metadata_blob VALUES ('main', ?)`, agyMeta("file://"+filepath.ToSlash(ws)))
		mustExec(t, db, `PRAGMA wal_checkpoint(TRUNCATE)`)
		db.Close()
	}
	b, err := os.ReadFile("testdata/antigravity/1.1.7/history.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	h := strings.NewReplacer("CHECKOUT", checkout, `"OTHER"`, `"`+agyOther+`"`, `"CONV"`, `"`+agyConv+`"`).Replace(string(b))
	writeFile(t, filepath.Join(root, "history.jsonl"), h)
	return Env{Home: home, Getenv: func(string) string { return "" }}, checkout
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
