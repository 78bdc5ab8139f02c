package launcher

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/internal/testledger"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/repo"
	"github.com/ai-memory/ai-memory/transcript"
)

// outOfOrder is a real Claude Code 2.1.197 transcript whose prompt record
// comes after the tool call it caused (issue 18).
const (
	outOfOrder        = "../transcript/testdata/claude/out-of-order-2.1.197.jsonl"
	outOfOrderSession = "6d184a6b-56f7-4b72-9bbf-d2e42273557e"
)

// TestLiveImportLineByLine: the live import of a run, fed the transcript
// one line at a time as the agent writes it, then the final import, store
// the same sequences, ids and conversation order as one import of the
// finished file, with the prompt before its tool call.
func TestLiveImportLineByLine(t *testing.T) {
	h, ok := harness.Lookup("claude")
	if !ok {
		t.Skip("claude is not registered")
	}
	ctx := context.Background()
	raw, err := os.ReadFile(outOfOrder)
	if err != nil {
		t.Fatal(err)
	}
	checkout, home := t.TempDir(), t.TempDir()
	if c, err := filepath.EvalSymlinks(checkout); err == nil {
		checkout = c
	}
	text := strings.ReplaceAll(string(raw), "/home/user/project", checkout)
	path := filepath.Join(transcript.ClaudeProjectDir(filepath.Join(home, ".claude"), checkout), outOfOrderSession+".jsonl")
	must(t, os.MkdirAll(filepath.Dir(path), 0o700))
	env := Env{Getenv: func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}}

	must(t, os.WriteFile(path, []byte(text), 0o600))
	want := liveOrderImport(t, ctx, h, env, checkout, nil)

	must(t, os.WriteFile(path, nil, 0o600))
	got := liveOrderImport(t, ctx, h, env, checkout, func(l *launch) {
		for _, line := range strings.SplitAfter(text, "\n") {
			if line == "" {
				continue
			}
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			must(t, err)
			_, err = f.WriteString(line)
			must(t, err)
			f.Close()
			caughtUp(t, l, path)
		}
	})
	if got != want {
		t.Fatalf("live, line by line:\n%s\nwant, one import:\n%s", got, want)
	}
	if !strings.HasPrefix(want, "2 ") || !strings.Contains(want, "hello RUN_TOOL") {
		t.Fatalf("conversation order does not start with the prompt:\n%s", want)
	}
}

// liveOrderImport runs a launch's live import while write (if any) writes
// the transcript, then the final import, and returns the events in
// conversation order as "sequence id content" lines.
func liveOrderImport(t *testing.T, ctx context.Context, h harness.Descriptor, env Env, checkout string, write func(*launch)) string {
	db, err := ledger.Open(ctx, testledger.Where(t, t.TempDir()))
	must(t, err)
	defer db.Close()
	ws, err := db.SelectWorkstream(ctx, ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w", Cwd: checkout}, ledger.Selector{})
	must(t, err)
	run, _, err := db.AcquireLease(ctx, ws.ID, h.Name, ledger.CurrentOwner())
	must(t, err)
	l := &launch{env: env, h: h, src: h.Source, id: repo.Identity{Root: checkout}, started: time.Now(),
		db: db, ws: ws, run: run, index: &indexer{}}
	l.plan.SessionID = outOfOrderSession
	if write != nil {
		l.live = startLive(ctx, l)
		write(l)
		l.live.stop()
		evs, err := db.EventsInRange(ctx, ws.ID, 0, 1000, 0)
		must(t, err)
		segs := map[string]bool{}
		for _, e := range evs {
			segs[e.SegmentPath] = true
		}
		if len(segs) < 2 {
			t.Errorf("live import stored %d events in %d appends; want the lines imported as they came", len(evs), len(segs))
		}
	}
	sess, ex, err := l.src.Find(env.transcriptEnv(), outOfOrderSession)
	if ex != transcript.Present {
		t.Fatalf("find session: %v %v", ex, err)
	}
	if _, err := l.importer().Import(ctx, l.src, sess); err != nil {
		t.Fatal(err)
	}
	evs, err := db.EventsInRange(ctx, ws.ID, 0, 1000, 0)
	must(t, err)
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "%d %s %q\n", e.Sequence, e.EventID, e.Content)
	}
	return b.String()
}

// caughtUp waits (at most 3 s) until the live import's cursor covers the
// whole file, so each line is imported by its own step.
func caughtUp(t *testing.T, l *launch, path string) {
	t.Helper()
	st, err := os.Stat(path)
	must(t, err)
	sess := transcript.Session{Harness: l.h.Name, ID: outOfOrderSession, Path: path, Size: st.Size()}
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		link, ok, err := l.db.SessionLink(context.Background(), l.ws.ID, l.h.Name, outOfOrderSession)
		must(t, err)
		if done, total := l.src.Progress(sess, transcript.Cursor(link.SourceCursor)); ok && done == total {
			return
		}
	}
	t.Fatalf("live import did not reach byte %d within 3 s", st.Size())
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
