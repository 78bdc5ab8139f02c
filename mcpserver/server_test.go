package mcpserver_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/history"
	"github.com/ai-memory/ai-memory/internal/testledger"
	"github.com/ai-memory/ai-memory/internal/timelinefix"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type fixture struct {
	where ledger.Where
	ws    ledger.Workstream
	other ledger.Workstream
	tl    history.Timeline
}

// newFixture builds a ledger with the three-run workstream and a second
// workstream whose content no tool of the first may show.
func newFixture(t *testing.T) fixture {
	t.Helper()
	ctx := context.Background()
	home := t.TempDir()
	db, err := ledger.Open(ctx, testledger.Where(t, home))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ws, err := timelinefix.Build(ctx, db, "parser", timelinefix.ThreeRuns())
	if err != nil {
		t.Fatal(err)
	}
	other, err := timelinefix.Build(ctx, db, "secret", []timelinefix.Run{{Harness: "codex", Session: "zz-9",
		Events: []ledger.EventInput{timelinefix.Ev("codex", "zz-9", 1, ledger.KindMessage, "user", "parser zebrafish plan", nil)}}})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := history.Load(ctx, db, ws.ID, time.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return fixture{where: testledger.Where(t, home), ws: ws, other: other, tl: tl}
}

func (f fixture) config(wsID, runID string) mcpserver.Config {
	return mcpserver.Config{WorkstreamID: wsID, RunID: runID, RepoFingerprint: timelinefix.Scope.RepoFingerprint,
		Open: func() (ledger.Ledger, error) { return ledger.Open(context.Background(), f.where) }}
}

// connect runs the server over in-memory transports and returns a client.
func connect(t *testing.T, c mcpserver.Config) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	go func() { _ = mcpserver.New(c).Run(ctx, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	if out != nil && !res.IsError {
		zero(out)
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v in %s", name, err, b)
		}
	}
	return res
}

func TestListTools(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f.config(f.ws.ID, ""))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, tool := range res.Tools {
		got[tool.Name] = true
		if tool.Description == "" || tool.InputSchema == nil {
			t.Errorf("%s: no description or schema", tool.Name)
		}
	}
	for _, name := range []string{mcpserver.ToolSearch, mcpserver.ToolSessions, mcpserver.ToolRead, mcpserver.ToolHandoff} {
		if !got[name] {
			t.Errorf("tool %s not listed (got %v)", name, got)
		}
	}
}

func TestSearch(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f.config(f.ws.ID, ""))
	var out struct{ Hits []mcpserver.Hit }
	tests := []struct {
		args      map[string]any
		wantFirst int64
		max       int
	}{
		{map[string]any{"query": "implement"}, 8, 20},
		{map[string]any{}, 12, 20}, // newest first without a query
		{map[string]any{"limit": 2}, 12, 2},
		{map[string]any{"query": `") OR * NEAR( "`}, -1, 20}, // any input is safe
	}
	for _, tt := range tests {
		if res := call(t, cs, mcpserver.ToolSearch, tt.args, &out); res.IsError {
			t.Fatalf("%v: tool error %v", tt.args, res.Content)
		}
		if len(out.Hits) > tt.max {
			t.Errorf("%v: %d hits, want at most %d", tt.args, len(out.Hits), tt.max)
		}
		if tt.wantFirst > 0 && (len(out.Hits) == 0 || out.Hits[0].Sequence != tt.wantFirst) {
			t.Errorf("%v: hits %+v, want first sequence %d", tt.args, out.Hits, tt.wantFirst)
		}
		for _, h := range out.Hits {
			if strings.Contains(h.Excerpt, "zebrafish") {
				t.Errorf("another workstream's event leaked: %+v", h)
			}
			if len([]rune(h.Excerpt)) > 400 {
				t.Errorf("excerpt of %d runes", len([]rune(h.Excerpt)))
			}
		}
	}
	call(t, cs, mcpserver.ToolSearch, map[string]any{"query": "zebrafish"}, &out)
	if len(out.Hits) != 0 {
		t.Errorf("search found another workstream's event: %+v", out.Hits)
	}
}

func TestListSessions(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f.config(f.ws.ID, ""))
	var out struct {
		Sessions   []mcpserver.SessionOut
		NextBefore int `json:"next_before_index"`
	}
	call(t, cs, mcpserver.ToolSessions, map[string]any{"limit": 2}, &out)
	if len(out.Sessions) != 2 || out.Sessions[0].Index != 3 || out.Sessions[1].Harness != "codex" || out.NextBefore != 2 {
		t.Fatalf("first page = %+v next %d", out.Sessions, out.NextBefore)
	}
	call(t, cs, mcpserver.ToolSessions, map[string]any{"before_index": out.NextBefore}, &out)
	if len(out.Sessions) != 1 || out.Sessions[0].FirstPrompt == "" || out.NextBefore != 0 {
		t.Fatalf("second page = %+v next %d", out.Sessions, out.NextBefore)
	}
}

func TestReadEvents(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f.config(f.ws.ID, ""))
	var out struct {
		Events    []mcpserver.EventOut
		NextAfter int64 `json:"next_after"`
	}
	call(t, cs, mcpserver.ToolRead, map[string]any{"run_id": f.tl.Sessions[1].RunID}, &out)
	if len(out.Events) != 3 || out.Events[0].Sequence != 8 || out.Events[2].Sequence != 10 || out.NextAfter != 0 {
		t.Fatalf("session 2 = %+v", out.Events)
	}
	call(t, cs, mcpserver.ToolRead, map[string]any{"limit": 5}, &out)
	if len(out.Events) != 5 || out.NextAfter != 5 {
		t.Fatalf("page = %d events, next %d", len(out.Events), out.NextAfter)
	}
	call(t, cs, mcpserver.ToolRead, map[string]any{"after": out.NextAfter, "limit": 50}, &out)
	if len(out.Events) != 7 || out.Events[0].Sequence != 6 {
		t.Fatalf("next page = %+v", out.Events)
	}
	// A truncated event and the way to ask for the rest.
	call(t, cs, mcpserver.ToolRead, map[string]any{"sequence": 1, "max_chars": 10}, &out)
	if len(out.Events) != 1 || !out.Events[0].Truncated || out.Events[0].Content != "design the" {
		t.Fatalf("truncated = %+v", out.Events)
	}
	whole := out.Events[0].Chars
	call(t, cs, mcpserver.ToolRead, map[string]any{"sequence": 1, "offset": 10, "max_chars": 8000}, &out)
	if out.Events[0].Truncated || !strings.HasPrefix(out.Events[0].Content, " parser") || 10+len([]rune(out.Events[0].Content)) != whole {
		t.Fatalf("rest = %+v (whole %d)", out.Events[0], whole)
	}
}

func TestHandoff(t *testing.T) {
	f := newFixture(t)
	var out struct {
		After, Through, Events, LeftOut int64
		Confirmed                       bool
		Note                            string
	}
	cs := connect(t, f.config(f.ws.ID, f.tl.Sessions[2].RunID))
	call(t, cs, mcpserver.ToolHandoff, nil, &out)
	if out.After != 7 || out.Through != 10 || !out.Confirmed || out.Note == "" {
		t.Fatalf("handoff = %+v", out)
	}
	cs = connect(t, f.config(f.ws.ID, ""))
	call(t, cs, mcpserver.ToolHandoff, nil, &out)
	if !strings.Contains(out.Note, "not launched by `ai-memory run`") {
		t.Fatalf("unmanaged handoff note = %q", out.Note)
	}
}

// Bad arguments are a tool error the model can read, never a crash or a
// protocol failure; the server keeps answering afterwards.
func TestBadArguments(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f.config(f.ws.ID, ""))
	tests := []struct {
		tool string
		args map[string]any
	}{
		{mcpserver.ToolSearch, map[string]any{"limit": 1000}},
		{mcpserver.ToolSearch, map[string]any{"query": 7}},
		{mcpserver.ToolSessions, map[string]any{"before_index": -1}},
		{mcpserver.ToolRead, map[string]any{"limit": 51}},
		{mcpserver.ToolRead, map[string]any{"offset": 3}},
		{mcpserver.ToolRead, map[string]any{"run_id": "no-such-run"}},
		{mcpserver.ToolRead, map[string]any{"after": "x"}},
	}
	for _, tt := range tests {
		if res := call(t, cs, tt.tool, tt.args, nil); !res.IsError {
			t.Errorf("%s %v: no tool error", tt.tool, tt.args)
		}
	}
	var out struct{ Hits []mcpserver.Hit }
	call(t, cs, mcpserver.ToolSearch, map[string]any{"query": "parser"}, &out)
	if len(out.Hits) == 0 {
		t.Error("server stopped answering after bad arguments")
	}
}

// Other repositories are invisible: a workstream id from another
// repository is refused, and no ledger or no workstream answers empty.
func TestScope(t *testing.T) {
	f := newFixture(t)
	c := f.config(f.other.ID, "")
	c.RepoFingerprint = "another-repository"
	cs := connect(t, c)
	res := call(t, cs, mcpserver.ToolSearch, map[string]any{"query": "zebrafish"}, nil)
	if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "another repository") {
		t.Fatalf("foreign workstream: %+v", res.Content)
	}
	empty := mcpserver.Config{Open: func() (ledger.Ledger, error) { return nil, nil }, WorkstreamID: "w"}
	cs = connect(t, empty)
	var out struct{ Hits []mcpserver.Hit }
	if res := call(t, cs, mcpserver.ToolSearch, nil, &out); res.IsError || out.Hits == nil || len(out.Hits) != 0 {
		t.Fatalf("no ledger: %+v %+v", res.Content, out)
	}
}

func zero(out any) {
	v := reflect.ValueOf(out).Elem()
	v.Set(reflect.Zero(v.Type()))
}
