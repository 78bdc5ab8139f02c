package transcript

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"
)

// opencodeFixture is a store with one session of the checkout, created
// from the real schema, plus helpers to add parts the way OpenCode does.
type opencodeFixture struct {
	opencodeStore
	session Session
}

const opencodeTestSession = "ses_test"

func newOpenCodeFixture(t testing.TB) opencodeFixture {
	t.Helper()
	st := newOpenCodeStore(t)
	st.exec(t, opencodeSchema(t))
	db := st.writer(t)
	mustExec(t, db, `INSERT INTO project (id, worktree, time_created, time_updated, sandboxes) VALUES ('p', ?, 1, 1, '[]')`, st.checkout)
	mustExec(t, db, `INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated)
		VALUES (?, 'p', 's', ?, 't', '1.18.33', 1, 1)`, opencodeTestSession, st.checkout)
	mustExec(t, db, `INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES
		('msg_u', ?, 1, 1, '{"role":"user"}'), ('msg_a', ?, 1, 1, '{"role":"assistant"}')`, opencodeTestSession, opencodeTestSession)
	db.Close()
	return opencodeFixture{opencodeStore: st, session: Session{Harness: "opencode", ID: opencodeTestSession, Path: st.db}}
}

func mustExec(t testing.TB, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// putPart inserts or replaces a part of the assistant message.
func putPart(db *sql.DB, id string, updated int64, data string) error {
	_, err := db.Exec(`INSERT OR REPLACE INTO part (id, message_id, session_id, time_created, time_updated, data)
		VALUES (?, 'msg_a', ?, ?, ?, ?)`, id, opencodeTestSession, updated, updated, data)
	return err
}

// TestOpenCodeStoreUntouched proves a read leaves every file of the store
// (database, WAL, shared-memory index) byte-identical with the same mtime.
func TestOpenCodeStoreUntouched(t *testing.T) {
	for _, withWAL := range []bool{false, true} {
		t.Run(fmt.Sprintf("wal=%v", withWAL), func(t *testing.T) {
			f := newOpenCodeFixture(t)
			w := f.writer(t)
			if err := putPart(w, "prt_1", time.Now().UnixMilli(), `{"type":"text","text":"hi"}`); err != nil {
				t.Fatal(err)
			}
			if !withWAL {
				w.Close() // last connection: checkpointed, -wal and -shm removed
			}
			before := treeSums(t, filepath.Dir(f.db))
			src := opencodeSource{}
			if _, _, err := src.Find(f.env, opencodeTestSession); err != nil {
				t.Fatal(err)
			}
			if ss, err := src.List(f.env, f.checkout, 0); err != nil || len(ss) != 1 {
				t.Fatalf("List = %v, %v", ss, err)
			}
			if r := readOpenCode(t, f.session, OpenCodeCursor{}, ReadOptions{}); len(r.events) != 1 {
				t.Fatalf("read %d events, want 1", len(r.events))
			}
			after := treeSums(t, filepath.Dir(f.db))
			for p, sum := range before {
				if withWAL && filepath.Base(p) == "opencode.db-shm" {
					continue // the WAL index is shared memory: readers set read marks in it
				}
				if after[p] != sum {
					t.Errorf("%s changed by a read", filepath.Base(p))
				}
			}
			for p := range after {
				if _, ok := before[p]; !ok {
					t.Errorf("a read created %s", filepath.Base(p))
				}
			}
		})
	}
}

// TestOpenCodeLiveWriter reads incrementally while a WAL writer keeps
// adding and completing parts: every part is imported exactly once, in
// order, with its final content, and the writer never waits on the reader.
func TestOpenCodeLiveWriter(t *testing.T) {
	f := newOpenCodeFixture(t)
	w := f.writer(t)
	const parts = 300
	var wg sync.WaitGroup
	var werr error
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(stop)
		base := time.Now().UnixMilli()
		for i := 0; i < parts; i++ {
			id := fmt.Sprintf("prt_%05d", i)
			// A tool part is first written running, then completed later.
			if err := putPart(w, id, base+int64(2*i), `{"type":"tool","tool":"bash","callID":"c`+id+`","state":{"status":"running","input":{"n":`+fmt.Sprint(i)+`}}}`); err != nil {
				werr = err
				return
			}
			if err := putPart(w, id, base+int64(2*i+1), `{"type":"tool","tool":"bash","callID":"c`+id+`","state":{"status":"completed","input":{"n":`+fmt.Sprint(i)+`},"output":"done `+id+`"}}`); err != nil {
				werr = err
				return
			}
		}
	}()
	var got []Event
	cur := OpenCodeCursor{}
	read := func() {
		r := readOpenCode(t, f.session, cur, ReadOptions{BatchEvents: 7})
		got = append(got, r.events...)
		cur = r.last
	}
	for done := false; !done; {
		select {
		case <-stop:
			done = true
		default:
			read()
		}
	}
	wg.Wait()
	if werr != nil {
		t.Fatalf("writer failed while the reader ran: %v", werr)
	}
	read()
	if len(got) != 2*parts {
		t.Fatalf("imported %d events, want %d", len(got), 2*parts)
	}
	for i := 0; i < parts; i++ {
		call, res := got[2*i], got[2*i+1]
		id := fmt.Sprintf("prt_%05d", i)
		if call.RecordID != id || res.RecordID != id || res.Content != "done "+id {
			t.Fatalf("event %d = %s %q / %s %q, want %s completed", i, call.RecordID, call.Content, res.RecordID, res.Content, id)
		}
	}
}

// TestOpenCodeUnfinishedPart: a part OpenCode is still writing holds the
// cursor back (its final content is read once it completes); one left
// unfinished by a killed OpenCode is imported after opencodeStaleAfter.
func TestOpenCodeUnfinishedPart(t *testing.T) {
	f := newOpenCodeFixture(t)
	w := f.writer(t)
	now := time.Now().UnixMilli()
	for _, p := range []struct {
		id   string
		at   int64
		data string
	}{
		{"prt_1", now, `{"type":"text","text":"first","time":{"start":1,"end":2}}`},
		{"prt_2", now + 1, `{"type":"tool","tool":"bash","callID":"c2","state":{"status":"running","input":{}}}`},
		{"prt_3", now + 2, `{"type":"text","text":"after the tool","time":{"start":3,"end":4}}`},
	} {
		if err := putPart(w, p.id, p.at, p.data); err != nil {
			t.Fatal(err)
		}
	}
	r := readOpenCode(t, f.session, OpenCodeCursor{}, ReadOptions{})
	if len(r.events) != 1 || r.events[0].Content != "first" || r.last.ID != "prt_1" {
		t.Fatalf("with a running tool: events %v, cursor %v; want only prt_1", eventKeys(r.events), r.last)
	}
	if err := putPart(w, "prt_2", now+3, `{"type":"tool","tool":"bash","callID":"c2","state":{"status":"error","input":{},"error":"boom"}}`); err != nil {
		t.Fatal(err)
	}
	r = readOpenCode(t, f.session, r.last, ReadOptions{})
	if keys := eventKeys(r.events); len(keys) != 3 || keys[2] != "tool_result|prt_2|1|boom" {
		t.Fatalf("after completion: %v", keys)
	}
	if r.events[2].Metadata["is_error"] != true {
		t.Errorf("error result metadata = %v", r.events[2].Metadata)
	}

	if err := putPart(w, "prt_4", now+4, `{"type":"tool","tool":"bash","callID":"c4","state":{"status":"running","input":{}}}`); err != nil {
		t.Fatal(err)
	}
	defer func(old func() time.Time) { opencodeNow = old }(opencodeNow)
	opencodeNow = func() time.Time { return time.Now().Add(opencodeStaleAfter + time.Minute) }
	r = readOpenCode(t, f.session, r.last, ReadOptions{})
	if len(r.events) != 1 || r.events[0].Kind != KindToolCall || len(r.losses) != 1 {
		t.Fatalf("stale running tool: events %v losses %v; want the call and one loss", eventKeys(r.events), r.losses)
	}
}

// TestOpenCodeParts is the part-type table: what is imported, what is a loss.
func TestOpenCodeParts(t *testing.T) {
	user, asst := `{"role":"user"}`, `{"role":"assistant"}`
	cases := []struct {
		name, msg, data string
		want            []string // eventKeys
		losses          int
	}{
		{"user text", user, `{"type":"text","text":"hi"}`, []string{"message|p|0|hi"}, 0},
		{"assistant text", asst, `{"type":"text","text":"yo","time":{"start":1,"end":2}}`, []string{"message|p|0|yo"}, 0},
		{"compaction summary", `{"role":"assistant","summary":true}`, `{"type":"text","text":"sum"}`, []string{"compaction|p|0|sum"}, 0},
		{"user summary object is not compaction", `{"role":"user","summary":{"diffs":[]}}`, `{"type":"text","text":"hi"}`, []string{"message|p|0|hi"}, 0},
		{"synthetic text", user, `{"type":"text","text":"file read","synthetic":true}`, nil, 1},
		{"packet read back", user, `{"type":"text","text":"` + PacketMarker + `\nold"}`, nil, 1},
		{"blank text", asst, `{"type":"text","text":"  "}`, nil, 0},
		{"tool completed", asst, `{"type":"tool","tool":"read","callID":"c","state":{"status":"completed","input":{"filePath":"/a"},"output":"x"}}`,
			[]string{`tool_call|p|0|read: {"filePath":"/a"}`, "tool_result|p|1|x"}, 0},
		{"tool read the packet", asst, `{"type":"tool","tool":"read","callID":"c","state":{"status":"completed","input":{},"output":"` + PacketMarker + `"}}`,
			[]string{"tool_call|p|0|read: {}"}, 1},
		{"reasoning", asst, `{"type":"reasoning","text":"hmm"}`, nil, 1},
		{"step-start", asst, `{"type":"step-start"}`, nil, 1},
		{"file", user, `{"type":"file","mime":"text/plain","url":"file:///a"}`, nil, 1},
		{"no type", asst, `{}`, nil, 1},
		{"malformed", asst, `{"type":`, nil, 1},
		{"unknown role", `{"role":"system"}`, `{"type":"text","text":"sys"}`, nil, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out sink
			parseOpenCodePart(opencodeRow{id: "p", data: []byte(c.data), msg: []byte(c.msg)}, &out)
			if got := eventKeys(out.events); fmt.Sprint(got) != fmt.Sprint(c.want) && !(len(got) == 0 && len(c.want) == 0) {
				t.Errorf("events = %q, want %q", got, c.want)
			}
			if len(out.losses) != c.losses {
				t.Errorf("losses = %v, want %d", out.losses, c.losses)
			}
		})
	}
}

// TestOpenCodeSystemPromptLoss: a message's own system prompt is noted as
// a loss once per message, not per part.
func TestOpenCodeSystemPromptLoss(t *testing.T) {
	f := newOpenCodeFixture(t)
	w := f.writer(t)
	mustExec(t, w, `UPDATE message SET data = '{"role":"user","system":"be terse"}' WHERE id = 'msg_a'`)
	for i, id := range []string{"prt_1", "prt_2"} {
		if err := putPart(w, id, int64(i+1), `{"type":"text","text":"t"}`); err != nil {
			t.Fatal(err)
		}
	}
	r := readOpenCode(t, f.session, OpenCodeCursor{}, ReadOptions{})
	if len(r.events) != 2 || len(r.losses) != 1 {
		t.Fatalf("events %d losses %v; want 2 events, one system-prompt loss", len(r.events), r.losses)
	}
}

// TestOpenCodeWindows: reading across several key windows and fetch chunks
// gives the same events as one window (the bug this catches: stopping after
// the first window).
func TestOpenCodeWindows(t *testing.T) {
	f := newOpenCodeFixture(t)
	w := f.writer(t)
	for i := 0; i < 57; i++ {
		if err := putPart(w, fmt.Sprintf("prt_%03d", i), int64(i/3), fmt.Sprintf(`{"type":"text","text":"t%d"}`, i)); err != nil {
			t.Fatal(err)
		}
	}
	want := eventKeys(readOpenCode(t, f.session, OpenCodeCursor{}, ReadOptions{}).events)
	if len(want) != 57 {
		t.Fatalf("one window: %d events, want 57", len(want))
	}
	defer func(k, n int) { opencodeKeyWindow, opencodeFetchRows = k, n }(opencodeKeyWindow, opencodeFetchRows)
	for _, c := range [][2]int{{10, 3}, {7, 7}, {1, 1}, {57, 100}} {
		opencodeKeyWindow, opencodeFetchRows = c[0], c[1]
		if got := eventKeys(readOpenCode(t, f.session, OpenCodeCursor{}, ReadOptions{}).events); !reflect.DeepEqual(got, want) {
			t.Errorf("window %d, fetch %d: %d events, want %d", c[0], c[1], len(got), len(want))
		}
	}
}
