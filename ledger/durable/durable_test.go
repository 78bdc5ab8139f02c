package durable

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// A segment written through the store reads back as the same records, and
// writing the same events again reuses the file.
func TestSegment_RoundTripAndReuse(t *testing.T) {
	s := New(t.TempDir())
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	evs, res, err := PrepareBatch([]ledger.EventInput{
		{Harness: "claude", NativeSessionID: "s", SourceRecordID: "r1", Kind: ledger.KindMessage, Content: "hello"},
		{Harness: "claude", NativeSessionID: "s", SourceRecordID: "r2", Kind: ledger.KindMessage, Content: "  "},
		{Harness: "claude", NativeSessionID: "s", SourceRecordID: "r1", Kind: ledger.KindMessage, Content: "hello"},
	})
	if err != nil || len(evs) != 1 || res.Dropped != 1 || res.Skipped != 1 {
		t.Fatalf("PrepareBatch = %d events, %+v, %v; want 1 kept, 1 dropped, 1 skipped", len(evs), res, err)
	}
	recs := []Record{ToRecord("ws1", "run", 1, evs[0], now)}
	data, err := EncodeSegment(recs)
	if err != nil {
		t.Fatal(err)
	}
	rel, created, err := s.WriteSegment("ws1", SegmentBase("run", data), data)
	if err != nil || !created {
		t.Fatalf("WriteSegment = %q, %v, %v", rel, created, err)
	}
	if _, again, err := s.WriteSegment("ws1", SegmentBase("run", data), data); err != nil || again {
		t.Fatalf("second WriteSegment created %v, %v; want the file reused", again, err)
	}
	got, n, err := s.LoadSegments("ws1")
	if err != nil || n != 1 || len(got) != 1 || got[0].Rel != rel || !reflect.DeepEqual(got[0].Rec, recs[0]) {
		t.Fatalf("LoadSegments = %+v, %d, %v; want the record back from %s", got, n, err, rel)
	}
	if st, err := os.Stat(filepath.Join(s.Home, rel)); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("segment mode = %v, %v; want 0600", st, err)
	}
}

// Snapshots are numbered upwards, the newest readable one wins, and pruning
// keeps the one before the newest.
func TestState_WriteLatestPrune(t *testing.T) {
	s := New(t.TempDir())
	for i, name := range []string{"a", "b", "c"} {
		st := NewState()
		st.Workstream = StateWorkstream{ID: "ws1", Name: name}
		_, seq, err := s.WriteState(st)
		if err != nil || seq != int64(i+1) {
			t.Fatalf("WriteState %d = %d, %v", i, seq, err)
		}
		s.PruneState("ws1", seq)
	}
	files, _ := StateFiles(s.StateDir("ws1"))
	if len(files) != 2 || files[0].Seq != 2 || files[1].Seq != 3 {
		t.Fatalf("after pruning: %+v; want snapshots 2 and 3", files)
	}
	if err := os.WriteFile(files[1].Path, []byte("{torn"), 0o600); err != nil {
		t.Fatal(err)
	}
	if st, ok, err := s.LatestState("ws1"); err != nil || !ok || st.Workstream.Name != "b" {
		t.Fatalf("LatestState = %+v, %v, %v; want b (the newest is torn)", st.Workstream, ok, err)
	}
}

func TestOrderForRebuild(t *testing.T) {
	rec := func(seq int64, id byte, rel string) Loaded {
		return Loaded{Rec: Record{Sequence: seq, EventID: string(rune('a' + id))}, Rel: rel}
	}
	in := []Loaded{rec(2, 1, "orphan"), rec(1, 0, "known"), rec(2, 2, "known"), rec(3, 2, "orphan")}
	var res ledger.RebuildResult
	out := OrderForRebuild(in, map[string]bool{"known": true}, &res)
	var got []string
	for _, l := range out {
		got = append(got, l.Rec.EventID+"@"+string(rune('0'+l.Rec.Sequence)))
	}
	want := []string{"a@1", "c@2", "b@3"}
	if !reflect.DeepEqual(got, want) || res.Duplicates != 1 || res.Renumbered != 1 {
		t.Fatalf("OrderForRebuild = %v, %+v; want %v with 1 duplicate and 1 renumbered", got, res, want)
	}
}

// A segment leaves out an event id its record's fields derive (version 2)
// and keeps one they do not; reading derives the missing id, and a version
// 1 line, which always had one, is refused without it.
func TestDecodeRecord_DerivedIDs(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	evs, _, err := PrepareBatch([]ledger.EventInput{{Harness: "claude", NativeSessionID: "s", SourceRecordID: "r1", Kind: ledger.KindMessage, Content: "hello"}})
	if err != nil {
		t.Fatal(err)
	}
	derived := ToRecord("ws1", "run", 1, evs[0], now)
	replayed := derived
	replayed.EventID, replayed.IDDerived = strings.Repeat("ab", 32), false // an id from elsewhere
	for _, tc := range []struct {
		name   string
		rec    Record
		withID bool
	}{{"derivable", derived, false}, {"stored", replayed, true}} {
		line, err := EncodeSegment([]Record{tc.rec})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(line), `"event_id"`); got != tc.withID || !strings.HasPrefix(string(line), `{"v":2,`) {
			t.Fatalf("%s: segment line %s; want event_id written = %v, version 2", tc.name, line, tc.withID)
		}
		back, ok := DecodeRecord(line[:len(line)-1])
		if !ok || !reflect.DeepEqual(back, tc.rec) {
			t.Fatalf("%s: DecodeRecord = %+v, %v; want %+v", tc.name, back, ok, tc.rec)
		}
	}
	line, _ := EncodeSegment([]Record{derived})
	if _, ok := DecodeRecord([]byte(strings.Replace(string(line), `{"v":2,`, `{"v":1,`, 1))); ok {
		t.Fatal("a version 1 line without an event id decoded; want it refused")
	}
}
