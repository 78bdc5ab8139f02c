package transcript

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonl"
)

func claudeLine(uuid, text string) string {
	return fmt.Sprintf(`{"type":"user","uuid":%q,"timestamp":"2026-11-30T01:00:00Z","message":{"role":"user","content":%q}}`+"\n", uuid, text)
}

func TestReadIncompleteTailImportedOnceComplete(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	full := claudeLine("u2", "second")
	writeFile(t, path, claudeLine("u1", "first")+full[:20])

	r1 := readAll(t, claudeSource{}, path, Cursor(""), ReadOptions{})
	if got := eventKeys(r1.events); len(got) != 1 || !strings.HasSuffix(got[0], "first") {
		t.Fatalf("first read: %v", got)
	}
	c1 := r1.last(Cursor(""))
	if want := int64(len(claudeLine("u1", "first"))); fc(c1).Offset != want {
		t.Fatalf("cursor offset %d, want %d (before the incomplete line)", fc(c1).Offset, want)
	}
	if again := readAll(t, claudeSource{}, path, c1, ReadOptions{}); len(again.cursors) != 0 {
		t.Fatalf("nothing new: want no batch, got %d", len(again.cursors))
	}

	appendFile(t, path, full[20:])
	r2 := readAll(t, claudeSource{}, path, c1, ReadOptions{})
	if got := eventKeys(r2.events); len(got) != 1 || !strings.HasSuffix(got[0], "second") {
		t.Fatalf("after completion: %v", got)
	}
	if r3 := readAll(t, claudeSource{}, path, r2.last(c1), ReadOptions{}); len(r3.events) != 0 {
		t.Fatalf("replay from final cursor imported %d events", len(r3.events))
	}
}

func TestReadReplayIsStable(t *testing.T) {
	path := "testdata/claude/print-mode.jsonl"
	a := readAll(t, claudeSource{}, path, Cursor(""), ReadOptions{})
	b := readAll(t, claudeSource{}, path, Cursor(""), ReadOptions{BatchEvents: 3})
	if !reflect.DeepEqual(eventKeys(a.events), eventKeys(b.events)) {
		t.Fatal("record ids or contents changed between replays")
	}
	seen := map[string]bool{}
	for _, k := range eventKeys(a.events) {
		if seen[k] {
			t.Fatalf("duplicate event %q", k)
		}
		seen[k] = true
	}
}

// TestReadRewrite: a cursor that no longer describes the file restarts the
// read from byte 0; unchanged records keep their ids, so a ledger keyed on
// them gains only the changed records.
func TestReadRewrite(t *testing.T) {
	orig := claudeLine("u1", "one") + claudeLine("u2", "two")
	tests := []struct {
		name     string
		rewrite  string
		otherDir bool
		wantLoss bool
		wantNew  []string // events not present in the original read
	}{
		{"truncated", claudeLine("u1", "one"), false, true, nil},
		{"same length, edited", claudeLine("u1", "ONE") + claudeLine("u2", "two"), false, true, []string{"message|u1|0|ONE"}},
		{"longer, prefix edited", claudeLine("u1", "uno") + claudeLine("u2", "two") + claudeLine("u3", "three"), false, true,
			[]string{"message|u1|0|uno", "message|u3|0|three"}},
		{"appended only", orig + claudeLine("u3", "three"), false, false, []string{"message|u3|0|three"}},
		{"cursor of another file", orig, true, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "s.jsonl")
			writeFile(t, path, orig)
			first := readAll(t, claudeSource{}, path, Cursor(""), ReadOptions{})
			from := first.last(Cursor(""))
			if tt.otherDir {
				f := fc(from)
				f.Path = filepath.Join(dir, "other.jsonl")
				from = f.encode()
			}
			writeFile(t, path, tt.rewrite)
			r := readAll(t, claudeSource{}, path, from, ReadOptions{})
			if got := hasLoss(r.losses, "rewritten"); got != tt.wantLoss {
				t.Errorf("rewrite loss = %v, want %v (%v)", got, tt.wantLoss, r.losses)
			}
			ledger := map[string]bool{}
			for _, k := range eventKeys(first.events) {
				ledger[k] = true
			}
			var added []string
			for _, k := range eventKeys(r.events) {
				if !ledger[k] {
					added = append(added, k)
					ledger[k] = true
				}
			}
			if !reflect.DeepEqual(added, tt.wantNew) {
				t.Errorf("new events %q, want %q", added, tt.wantNew)
			}
			if end := fc(r.last(from)); end.Offset != int64(len(tt.rewrite)) {
				t.Errorf("final offset %d, want %d", end.Offset, len(tt.rewrite))
			}
		})
	}
}

func hasLoss(ls []Loss, sub string) bool {
	for _, l := range ls {
		if strings.Contains(l.Reason, sub) {
			return true
		}
	}
	return false
}

func TestReadHugeRecords(t *testing.T) {
	before := claudeLine("u1", "before")
	after := claudeLine("u3", "after")
	tests := []struct {
		name      string
		textLen   int // the huge line is claudeLine("u2", text of this length)
		wantSkip  bool
		wantCount int
	}{
		{"just under the limit", jsonl.MaxRecord - 200, false, 3},
		{"just over the limit", jsonl.MaxRecord + 1, true, 2},
		{"15 MB line", 15 << 20, true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.jsonl")
			huge := claudeLine("u2", strings.Repeat("x", tt.textLen))
			writeFile(t, path, before+huge+after)
			r := readAll(t, claudeSource{}, path, Cursor(""), ReadOptions{})
			if len(r.events) != tt.wantCount {
				t.Fatalf("events %d, want %d", len(r.events), tt.wantCount)
			}
			wantLoss := fmt.Sprintf("record over 1 MiB at byte %d skipped", len(before))
			if got := hasLoss(r.losses, wantLoss); got != tt.wantSkip {
				t.Fatalf("loss %q present = %v, want %v (%v)", wantLoss, got, tt.wantSkip, r.losses)
			}
			if end := fc(r.last("")); end.Offset != int64(len(before+huge+after)) {
				t.Fatalf("cursor %d did not move past the file end %d", end.Offset, len(before+huge+after))
			}
			if again := readAll(t, claudeSource{}, path, r.last(Cursor("")), ReadOptions{}); len(again.cursors) != 0 {
				t.Fatal("the prefix hash over a skipped record did not verify")
			}
		})
	}
}

// TestReadHugeIncompleteTail: an oversize line still being written is not
// consumed; once complete it is skipped exactly once.
func TestReadHugeIncompleteTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	head := claudeLine("u1", "head")
	huge := claudeLine("u2", strings.Repeat("y", 3<<20))
	writeFile(t, path, head+huge[:2<<20])
	r1 := readAll(t, claudeSource{}, path, Cursor(""), ReadOptions{})
	c1 := r1.last(Cursor(""))
	if fc(c1).Offset != int64(len(head)) || len(r1.losses) != 0 {
		t.Fatalf("cursor %d losses %v; want %d and none", fc(c1).Offset, r1.losses, len(head))
	}
	appendFile(t, path, huge[2<<20:]+claudeLine("u3", "tail"))
	r2 := readAll(t, claudeSource{}, path, c1, ReadOptions{})
	if len(r2.events) != 1 || len(r2.losses) != 1 || hasLoss(r2.losses, "rewritten") {
		t.Fatalf("after completion: events %v losses %v", eventKeys(r2.events), r2.losses)
	}
}

func TestReadEmitErrorStops(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	var sb strings.Builder
	for i := range 500 {
		sb.WriteString(claudeLine(fmt.Sprint("u", i), "text"))
	}
	writeFile(t, path, sb.String())
	boom := errors.New("disk full")
	calls := 0
	err := claudeSource{}.Read(context.Background(), Session{Path: path}, Cursor(""), ReadOptions{BatchEvents: 1},
		func(Batch) error { calls++; return boom })
	if !errors.Is(err, boom) || calls != 1 {
		t.Fatalf("err %v after %d emits; want the emit error after 1", err, calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = claudeSource{}.Read(ctx, Session{Path: path}, Cursor(""), ReadOptions{}, func(Batch) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled read: %v", err)
	}
}

func TestReadMissingFile(t *testing.T) {
	err := codexSource{}.Read(context.Background(), Session{Path: filepath.Join(t.TempDir(), "nope.jsonl")},
		Cursor(""), ReadOptions{}, func(Batch) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "open transcript") {
		t.Fatalf("err = %v", err)
	}
}

// TestCursorRoundTrip pins the JSONL cursor's stored form: ledgers written
// by every earlier release hold {"path","offset","prefix_sha256"} and must
// keep resuming from it.
func TestCursorRoundTrip(t *testing.T) {
	tests := []struct {
		in      string
		want    fileCursor
		wantErr bool
	}{
		{"", fileCursor{}, false},
		{`{"path":"/a.jsonl","offset":12,"prefix_sha256":"ab"}`, fileCursor{"/a.jsonl", 12, "ab"}, false},
		{`{"path":"/a.jsonl","offset":-1}`, fileCursor{}, true},
		{`{"offset":5}`, fileCursor{}, true},
		{`not json`, fileCursor{}, true},
	}
	for _, tt := range tests {
		got, err := parseFileCursor(Cursor(tt.in))
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("parseFileCursor(%q) = %+v, %v", tt.in, got, err)
		}
		if err == nil && string(got.encode()) != tt.in {
			t.Errorf("encode() = %q, want %q", got.encode(), tt.in)
		}
	}
}
