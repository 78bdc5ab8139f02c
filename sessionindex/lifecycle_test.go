package sessionindex

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestEndIsKeyedByNativeIDNotLatest(t *testing.T) {
	s, clk, _ := newStore(t)
	s.Alive = func(string, string) bool { return true } // parallel sessions
	mine := mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "mine"})
	clk.Add(time.Minute)
	theirs := mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "theirs"}) // moves latest_session
	clk.Add(time.Minute)
	r, err := s.End("codex", "mine")
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != mine.Session.ID || r.Status != StatusEnded || r.Ended == nil || !r.Ended.Equal(clk.Now()) {
		t.Fatalf("ended %+v", r)
	}
	if statusOf(t, s, theirs.Session.ID) != StatusActive {
		t.Fatal("the latest session was ended instead of mine")
	}
	if ix := mustLoad(t, s); ix.LatestSession != theirs.Session.ID {
		t.Fatalf("end moved latest_session to %s", ix.LatestSession)
	}
	// Ending again changes nothing, ended time kept.
	clk.Add(time.Minute)
	before := readIndexFile(t, s.Root)
	if r2, err := s.End("codex", "mine"); err != nil || !r2.Ended.Equal(*r.Ended) {
		t.Fatalf("second end: %+v %v", r2, err)
	}
	if readIndexFile(t, s.Root) != before {
		t.Fatal("idempotent end rewrote the file")
	}
}

func TestEndErrors(t *testing.T) {
	s, _, _ := newStore(t)
	mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "A"})
	tests := []struct {
		name, rt, id string
		notFound     bool
	}{
		{name: "other runtime", rt: "claude", id: "A", notFound: true},
		{name: "unknown id", rt: "codex", id: "B", notFound: true},
		{name: "pending", rt: "codex", id: PendingID},
		{name: "empty", rt: "codex", id: ""},
		{name: "bad runtime", rt: "a b", id: "A"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.End(tt.rt, tt.id)
			if err == nil || errors.Is(err, ErrNotFound) != tt.notFound {
				t.Fatalf("err = %v, notFound %v", err, tt.notFound)
			}
		})
	}
	if statusOf(t, s, "20260804-1641-codex") != StatusActive {
		t.Fatal("a failed end changed the record")
	}
}

func TestEndCorrectsInterruptedAndEndIDEndsPending(t *testing.T) {
	s, _, _ := newStore(t)
	a := mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "A"})
	p := mustStart(t, s, StartOptions{Runtime: "claude"}) // interrupts A
	if statusOf(t, s, a.Session.ID) != StatusInterrupted {
		t.Fatal("setup: A not interrupted")
	}
	if r, err := s.End("codex", "A"); err != nil || r.Status != StatusEnded {
		t.Fatalf("end of interrupted: %+v %v", r, err)
	}
	if r, err := s.EndID(p.Session.ID); err != nil || r.Status != StatusEnded {
		t.Fatalf("EndID: %+v %v", r, err)
	}
	if _, err := s.EndID("nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("EndID unknown: %v", err)
	}
}

func TestBind(t *testing.T) {
	s, _, _ := newStore(t)
	s.Alive = func(string, string) bool { return true }
	p := mustStart(t, s, StartOptions{Runtime: "codex"})
	real := mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "R"})
	p2 := mustStart(t, s, StartOptions{Runtime: "codex"})
	tests := []struct {
		name, id, native string
		wantErr          string
	}{
		{name: "pending to real", id: p.Session.ID, native: "N1"},
		{name: "same again is a no-op", id: p.Session.ID, native: "N1"},
		{name: "refuse overwriting a real id", id: real.Session.ID, native: "N2", wantErr: "refusing to overwrite"},
		{name: "refuse duplicate identity", id: p2.Session.ID, native: "R", wantErr: "already bound"},
		{name: "refuse placeholder", id: p2.Session.ID, native: PendingID, wantErr: "not a native session id"},
		{name: "unknown record", id: "nope", native: "N3", wantErr: "no session"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := s.Bind(tt.id, tt.native)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || r.NativeSessionID != tt.native {
				t.Fatalf("bind: %+v %v", r, err)
			}
		})
	}
	// The bound record is now found by its native id.
	if res := mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "N1"}); !res.Resumed || res.Session.ID != p.Session.ID {
		t.Fatalf("bound record not resumed: %+v", res.Session)
	}
	if ix := mustLoad(t, s); ix.Sessions[ix.Find(real.Session.ID)].NativeSessionID != "R" {
		t.Fatal("real id overwritten")
	}
}

func TestInterrupt(t *testing.T) {
	s, clk, _ := newStore(t)
	s.Alive = func(string, string) bool { return true }
	a := mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "A"})
	e := mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "E"})
	if _, err := s.End("codex", "E"); err != nil {
		t.Fatal(err)
	}
	clk.Add(time.Hour)
	r, err := s.Interrupt(a.Session.ID)
	if err != nil || r.Status != StatusInterrupted || r.Ended == nil || !r.Ended.Equal(clk.Now()) {
		t.Fatalf("interrupt: %+v %v", r, err)
	}
	if _, err := s.Interrupt(a.Session.ID); err != nil {
		t.Fatalf("second interrupt should be a no-op: %v", err)
	}
	if _, err := s.Interrupt(e.Session.ID); err == nil || !strings.Contains(err.Error(), "already ended") {
		t.Fatalf("interrupting an ended record: %v", err)
	}
	if _, err := s.Interrupt("nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
}

func TestMarkInterrupted(t *testing.T) {
	s, _, _ := newStore(t)
	a := mustStart(t, s, StartOptions{Runtime: "claude", NativeID: "A"})
	r, ok, err := s.MarkInterrupted("CLAUDE", "A")
	if err != nil || !ok || r.ID != a.Session.ID || r.Status != StatusInterrupted {
		t.Fatalf("mark: %+v %v %v", r, ok, err)
	}
	for _, tc := range [][2]string{{"claude", "A"}, {"claude", "missing"}, {"codex", "A"}, {"claude", PendingID}} {
		if _, ok, err := s.MarkInterrupted(tc[0], tc[1]); ok || err != nil {
			t.Fatalf("MarkInterrupted%v = %v, %v; want no change", tc, ok, err)
		}
	}
}

func TestEndWithoutRuntime(t *testing.T) {
	s, _, _ := newStore(t)
	s.Alive = func(string, string) bool { return true }
	mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "only"})
	mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "both"})
	mustStart(t, s, StartOptions{Runtime: "claude", NativeID: "both"})
	if r, err := s.End("", "only"); err != nil || r.Runtime != "codex" || r.Status != StatusEnded {
		t.Fatalf("end by native id alone: %+v %v", r, err)
	}
	if _, err := s.End("", "both"); err == nil || !strings.Contains(err.Error(), "pass --runtime") {
		t.Fatalf("ambiguous native id: %v", err)
	}
	if _, err := s.End("", "none"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing native id: %v", err)
	}
}
