package sessionindex

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"
)

func TestStartIDCollisionsInOneMinute(t *testing.T) {
	s, clk, _ := newStore(t)
	want := []string{"20260804-1641-codex", "20260804-1641-codex-2", "20260804-1641-codex-3", "20260804-1641-claude"}
	rts := []string{"codex", "codex", "codex", "claude"}
	for i, rt := range rts {
		res := mustStart(t, s, StartOptions{Runtime: rt, NativeID: fmt.Sprintf("n%d", i)})
		if res.Session.ID != want[i] {
			t.Fatalf("start %d: id %s, want %s", i, res.Session.ID, want[i])
		}
		clk.Add(5 * time.Second) // still 16:41
	}
	clk.Add(time.Minute)
	if res := mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "later"}); res.Session.ID != "20260804-1643-codex" {
		t.Fatalf("next minute id %s", res.Session.ID)
	}
}

func TestStartResumesSameRuntimeAndNativeID(t *testing.T) {
	s, clk, _ := newStore(t)
	first := mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "A", Focus: "old focus"})
	other := mustStart(t, s, StartOptions{Runtime: "claude", NativeID: "B"}) // interrupts A (no Alive)
	clk.Add(5 * time.Minute)
	res := mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "A", Focus: "new  focus\nline"})
	if !res.Resumed || res.Session.ID != first.Session.ID {
		t.Fatalf("not resumed: %+v", res)
	}
	r := res.Session
	if r.Status != StatusActive || r.Ended != nil || r.Focus != "new focus line" {
		t.Fatalf("resumed record %+v", r)
	}
	if !r.Started.Equal(first.Session.Started) {
		t.Fatalf("resume changed started")
	}
	ix := mustLoad(t, s)
	if len(ix.Sessions) != 2 || ix.LatestSession != first.Session.ID {
		t.Fatalf("index after resume: %d sessions, latest %s", len(ix.Sessions), ix.LatestSession)
	}
	if got := ids(res.Interrupted); !reflect.DeepEqual(got, []string{other.Session.ID}) {
		t.Fatalf("interrupted %v", got)
	}
	// Focus is kept when not given.
	if res := mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "A"}); res.Session.Focus != "new focus line" {
		t.Fatalf("focus lost on resume without --focus: %q", res.Session.Focus)
	}
}

func TestStartPendingNeverResumes(t *testing.T) {
	s, _, _ := newStore(t)
	a := mustStart(t, s, StartOptions{Runtime: "codex"})
	b := mustStart(t, s, StartOptions{Runtime: "codex", NativeID: PendingID})
	if b.Resumed || a.Session.ID == b.Session.ID || a.Session.NativeSessionID != PendingID {
		t.Fatalf("pending records merged: %+v %+v", a.Session, b.Session)
	}
}

func TestStartRecovery(t *testing.T) {
	tests := []struct {
		name            string
		alive           func(rt, id string) bool
		wantInterrupted []string
		wantOpen        []string
	}{
		{name: "no evidence", alive: nil, wantInterrupted: []string{"codex:A", "claude:B"}, wantOpen: []string{"codex:pending"}},
		{name: "all alive", alive: func(string, string) bool { return true }, wantOpen: []string{"codex:A", "claude:B", "codex:pending"}},
		{name: "only B alive", alive: func(rt, id string) bool { return rt == "claude" && id == "B" },
			wantInterrupted: []string{"codex:A"}, wantOpen: []string{"claude:B", "codex:pending"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, clk, _ := newStore(t)
			writeIndex(t, s.Root, `{"sessions": [
 {"id": "a", "runtime": "codex", "native_session_id": "A", "started": "2026-08-04T10:00:00Z", "ended": null, "status": "active", "focus": ""},
 {"id": "b", "runtime": "claude", "native_session_id": "B", "started": "2026-08-04T11:00:00Z", "ended": null, "status": "active", "focus": ""},
 {"id": "p", "runtime": "codex", "native_session_id": "pending", "started": "2026-08-04T11:30:00Z", "ended": null, "status": "active", "focus": ""},
 {"id": "e", "runtime": "codex", "native_session_id": "E", "started": "2026-08-04T09:00:00Z", "ended": "2026-08-04T09:30:00Z", "status": "ended", "focus": ""}]}`)
			s.Alive = tt.alive
			res := mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "C"})
			if got := keys(res.Interrupted); !reflect.DeepEqual(got, tt.wantInterrupted) {
				t.Fatalf("interrupted %v, want %v", got, tt.wantInterrupted)
			}
			if got := keys(res.Open); !reflect.DeepEqual(got, tt.wantOpen) {
				t.Fatalf("open %v, want %v", got, tt.wantOpen)
			}
			ix := mustLoad(t, s)
			for _, r := range res.Interrupted {
				got := ix.Sessions[ix.Find(r.ID)]
				if got.Status != StatusInterrupted || got.Ended == nil || !got.Ended.Equal(clk.Now()) {
					t.Fatalf("record %s on disk: %+v", r.ID, got)
				}
			}
			if statusOf(t, s, "e") != StatusEnded {
				t.Fatal("terminal record changed")
			}
		})
	}
}

func keys(rs []Record) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Runtime+":"+r.NativeSessionID)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func TestStartAliveAskedOncePerSession(t *testing.T) {
	s, _, _ := newStore(t)
	mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "A"})
	calls, commits := 0, 0
	s.Alive = func(string, string) bool { calls++; return true }
	s.beforeCommit = func() { // force one retry per Start, which re-runs the mutation
		if commits++; commits%2 == 1 {
			if err := foreignWrite(s.Root, fmt.Sprint(commits)); err != nil {
				t.Error(err)
			}
		}
	}
	mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "B"})
	mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "A"}) // resume: B is the other one
	if calls != 2 || commits != 4 {
		t.Fatalf("Alive called %d times over %d commit attempts, want 2 over 4", calls, commits)
	}
}

func TestEvictionKeepsActiveAndDropsOldestTerminal(t *testing.T) {
	s, clk, _ := newStore(t)
	// Limit 3 from the file; file order differs from start order on purpose.
	writeIndex(t, s.Root, `{"history_limit": 3, "sessions": [
 {"id": "t-new", "runtime": "codex", "native_session_id": "1", "started": "2026-08-03T12:00:00Z", "ended": "2026-08-03T13:00:00Z", "status": "ended"},
 {"id": "act-oldest", "runtime": "codex", "native_session_id": "2", "started": "2026-08-01T00:00:00Z", "ended": null, "status": "active"},
 {"id": "t-old", "runtime": "codex", "native_session_id": "3", "started": "2026-08-02T12:00:00Z", "ended": "2026-08-02T13:00:00Z", "status": "interrupted"}]}`)
	s.Alive = func(string, string) bool { return true } // keep actives active
	res := mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "4"})
	if got := ids(res.Evicted); !reflect.DeepEqual(got, []string{"t-old"}) {
		t.Fatalf("evicted %v, want [t-old]", got)
	}
	clk.Add(time.Minute)
	res = mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "5"})
	if got := ids(res.Evicted); !reflect.DeepEqual(got, []string{"t-new"}) {
		t.Fatalf("evicted %v, want [t-new]", got)
	}
	// Only actives left: over the limit, nothing more can go.
	clk.Add(time.Minute)
	res = mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "6"})
	ix := mustLoad(t, s)
	if len(res.Evicted) != 0 || len(ix.Sessions) != 4 || ix.HistoryLimit != 3 {
		t.Fatalf("evicted %v, %d sessions, limit %d", ids(res.Evicted), len(ix.Sessions), ix.HistoryLimit)
	}
	for _, r := range ix.Sessions {
		if r.Status != StatusActive {
			t.Fatalf("unexpected %s %s", r.ID, r.Status)
		}
	}
}

func TestEvictionDefaultLimitWithNonPositiveFileValue(t *testing.T) {
	s, clk, _ := newStore(t)
	writeIndex(t, s.Root, `{"history_limit": 0}`)
	for i := 0; i < 25; i++ {
		mustStart(t, s, StartOptions{Runtime: "codex", NativeID: fmt.Sprint(i)}) // interrupts the previous one
		clk.Add(time.Minute)
	}
	ix := mustLoad(t, s)
	if len(ix.Sessions) != DefaultHistoryLimit || ix.HistoryLimit != 0 {
		t.Fatalf("%d sessions, limit kept as %d", len(ix.Sessions), ix.HistoryLimit)
	}
	if ix.Sessions[len(ix.Sessions)-1].NativeSessionID != "24" || ix.Sessions[0].NativeSessionID != "5" {
		t.Fatalf("wrong records kept: first %s", ix.Sessions[0].NativeSessionID)
	}
}

func TestStartValidation(t *testing.T) {
	tests := []struct {
		name string
		o    StartOptions
		want error
	}{
		{name: "no runtime", o: StartOptions{}, want: ErrRuntimeRequired},
		{name: "bad runtime", o: StartOptions{Runtime: "co dex"}},
		{name: "bad status", o: StartOptions{Runtime: "codex", Status: "ended"}},
		{name: "native id with space", o: StartOptions{Runtime: "codex", NativeID: "a b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, _ := newStore(t)
			_, err := s.Start(tt.o)
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

// TestStartRuntimeNormalised: the runtime is trimmed and lower-cased (harness
// aliases are mapped by the callers, which know the harness registry).
func TestStartRuntimeNormalised(t *testing.T) {
	s, _, _ := newStore(t)
	if res := mustStart(t, s, StartOptions{Runtime: " Claude "}); res.Session.Runtime != "claude" || res.Session.ID != "20260804-1641-claude" {
		t.Fatalf("runtime not normalised: %+v", res.Session)
	}
}
