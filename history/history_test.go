package history_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/history"
	"github.com/ai-memory/ai-memory/internal/testledger"
	"github.com/ai-memory/ai-memory/internal/timelinefix"
	"github.com/ai-memory/ai-memory/ledger"
)

func load(t *testing.T) (ledger.Ledger, history.Timeline) {
	t.Helper()
	ctx := context.Background()
	db, err := ledger.Open(ctx, testledger.Where(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ws, err := timelinefix.Build(ctx, db, "parser", timelinefix.ThreeRuns())
	if err != nil {
		t.Fatal(err)
	}
	tl, err := history.Load(ctx, db, ws.ID, time.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return db, tl
}

func TestLoadSessions(t *testing.T) {
	_, tl := load(t)
	type row struct {
		harness     string
		first, last int64
		prompt      string
		handoff     *history.Handoff
	}
	var got []row
	for _, s := range tl.Sessions {
		got = append(got, row{s.Harness, s.FirstSequence, s.LastSequence, history.OneLine(s.FirstPrompt, 18), s.Handoff})
	}
	want := []row{
		{"claude", 1, 7, "design the parser…", nil},
		{"codex", 8, 10, "implement the par…", &history.Handoff{After: 0, Through: 7, Events: 7, Confirmed: true}},
		{"claude", 11, 12, "review the parser", &history.Handoff{After: 7, Through: 10, Events: 3, Confirmed: true}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("sessions\n got %+v\nwant %+v", got, want)
	}
	for i, s := range tl.Sessions {
		if s.Index != i+1 || s.Machine == "" || s.State != "finished" {
			t.Errorf("session %d: index %d machine %q state %q", i, s.Index, s.Machine, s.State)
		}
	}
}

func TestSummarize(t *testing.T) {
	db, tl := load(t)
	sum, err := history.Summarize(context.Background(), db, tl, tl.Sessions[0].RunID)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"read", sum.FilesRead, []string{"go.mod"}},
		{"edited", sum.FilesEdited, []string{"parser.go"}},
		{"written", sum.FilesWritten, []string{"lexer.go"}},
		{"commands", sum.Commands, []string{"go test ./..."}},
		{"final", sum.FinalAnswer, "The parser is designed; one test fails."},
		{"prompts", len(sum.Prompts), 1},
		{"errors", len(sum.Errors), 1},
		{"previous", sum.Previous, ""},
		{"next", sum.Next, tl.Sessions[1].RunID},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: got %#v, want %#v", c.name, c.got, c.want)
		}
	}
	if strings.ContainsRune(sum.Errors[0], 0x1b) || strings.ContainsRune(sum.Title, 0x1b) {
		t.Errorf("escape leaked into the summary: %q / %q", sum.Title, sum.Errors[0])
	}
	if _, err := history.Summarize(context.Background(), db, tl, "nope"); err == nil {
		t.Error("unknown run: no error")
	}
}

// A session longer than MaxSummaryEvents is summarised from its head and
// tail: its first prompt and its final answer are there, the gap is named.
func TestSummarizeLongSession(t *testing.T) {
	ctx := context.Background()
	db, err := ledger.Open(ctx, testledger.Where(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	n := history.MaxSummaryEvents + 400
	ws, err := timelinefix.BuildBig(ctx, db, "big", n, 1)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := history.Load(ctx, db, ws.ID, time.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := history.Summarize(ctx, db, tl, tl.Sessions[0].RunID)
	if err != nil {
		t.Fatal(err)
	}
	half := int64(history.MaxSummaryEvents / 2)
	if !sum.Partial || sum.SkippedAfter != half || sum.SkippedThrough != int64(n)-half {
		t.Errorf("partial %v, skipped (%d, %d], want (%d, %d]", sum.Partial, sum.SkippedAfter, sum.SkippedThrough, half, int64(n)-half)
	}
	last, _ := db.EventsAfter(ctx, ws.ID, int64(n)-1, int64(n), 0)
	if len(sum.Prompts) != 1 || !strings.HasPrefix(sum.Prompts[0], "big prompt") || sum.FinalAnswer != last[0].Content || len(sum.Commands) == 0 {
		t.Errorf("prompts %d, final %.20q (want %.20q), commands %d", len(sum.Prompts), sum.FinalAnswer, last[0].Content, len(sum.Commands))
	}
}

func TestParseToolCalls(t *testing.T) {
	cases := []struct {
		content       string
		edited, wrote []string
		commands      []string
	}{
		{`Bash: {"command":"ls -la"}`, nil, nil, []string{"ls -la"}},
		{`exec_command: {"cmd":"go test"}`, nil, nil, []string{"go test"}},
		{`exec_command: {"cmd":["bash","-lc","make x"]}`, nil, nil, []string{"make x"}},
		{`shell: {"command":["git","status"]}`, nil, nil, []string{"git status"}},
		{"apply_patch: *** Begin Patch\n*** Update File: a.go\n*** Add File: b.go\n*** Delete File: c.go\n*** End Patch", []string{"a.go", "c.go"}, []string{"b.go"}, nil},
		{`MultiEdit: {"file_path":"/src/fix/x/y.go"}`, []string{"x/y.go"}, nil, nil},
		{`Grep: {"pattern":"x"}`, nil, nil, nil},
		{`Bash: not json`, nil, nil, nil},
	}
	for _, c := range cases {
		sum := history.CompileForTest([]ledger.EventInput{{Kind: ledger.KindToolCall, Content: c.content}}, "/src/fix")
		if !sameList(sum.FilesEdited, c.edited) || !sameList(sum.FilesWritten, c.wrote) || !sameList(sum.Commands, c.commands) {
			t.Errorf("%q: edited %v wrote %v commands %v", c.content, sum.FilesEdited, sum.FilesWritten, sum.Commands)
		}
	}
}

func sameList(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}

func TestClean(t *testing.T) {
	cases := map[string]string{
		"plain text\n\tok":   "plain text\n\tok",
		"\x1b[31mred\x1b[0m": "␛[31mred␛[0m",
		"bell\x07 del\x7f":   "bell␇ del␡",
		"c1 \u009b31m":       "c1 \uFFFD31m",
		"bad \xff utf8":      "bad \uFFFD utf8",
		"ünïcödé <b>&</b>":   "ünïcödé <b>&</b>",
		"\r\n carriage":      "␍\n carriage",
	}
	for in, want := range cases {
		if got := history.Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHighlight(t *testing.T) {
	got := history.Highlight("The Parser parses; parser.go", "parser GO")
	var b strings.Builder
	for _, f := range got {
		if f.Match {
			b.WriteString("[" + f.Text + "]")
		} else {
			b.WriteString(f.Text)
		}
	}
	if want := "The [Parser] parses; [parser].[go]"; b.String() != want {
		t.Fatalf("got %q, want %q", b.String(), want)
	}
}

func TestFormatDuration(t *testing.T) {
	cases := map[time.Duration]string{42 * time.Second: "42s", 70 * time.Second: "1m10s", 125 * time.Minute: "2h05m"}
	for d, want := range cases {
		if got := history.FormatDuration(d); got != want {
			t.Errorf("%v: got %q, want %q", d, got, want)
		}
	}
}
