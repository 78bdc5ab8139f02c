// Package timelinefix builds ledgers for the tests and benchmarks of the
// timeline read model and the web UI through the public ledger API: runs
// that hold the lease, append their events and finish, exactly as the
// launcher does.
package timelinefix

import (
	"context"
	"fmt"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// Scope is the checkout every fixture workstream belongs to.
var Scope = ledger.Scope{RepoFingerprint: "repo-fix", WorktreeFingerprint: "wt-fix", Cwd: "/src/fix"}

// Malicious is transcript text that must render inert: markup, an event
// handler and terminal escapes (OSC title, SGR colour, clear screen).
const Malicious = "<script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\"> \x1b]0;pwned\x07\x1b[31mred\x1b[2J"

// Run is one launch to record.
type Run struct {
	Harness, Session string
	// Handoff, when set, is recorded as the packet range (after, through]
	// with delivery confirmed.
	Handoff *[2]int64
	Events  []ledger.EventInput
}

// Build creates workstream name in Scope and records runs in order.
func Build(ctx context.Context, db ledger.Ledger, name string, runs []Run) (ledger.Workstream, error) {
	ws, err := db.SelectWorkstream(ctx, Scope, ledger.Selector{Name: name, Create: true})
	if err != nil {
		return ws, err
	}
	for _, r := range runs {
		if err := record(ctx, db, ws.ID, r); err != nil {
			return ws, err
		}
	}
	return ws, nil
}

func record(ctx context.Context, db ledger.Ledger, wsID string, r Run) error {
	run, _, err := db.AcquireLease(ctx, wsID, r.Harness, ledger.CurrentOwner())
	if err != nil {
		return fmt.Errorf("acquire lease: %w", err)
	}
	if err := db.SetRunSession(ctx, run.ID, r.Session); err != nil {
		return err
	}
	if r.Handoff != nil {
		if err := db.SetRunSync(ctx, run.ID, r.Handoff[0], r.Handoff[1]); err != nil {
			return err
		}
		if err := db.MarkContextDelivered(ctx, run.ID); err != nil {
			return err
		}
	}
	for i := 0; i < len(r.Events); i += 400 {
		batch := r.Events[i:min(i+400, len(r.Events))]
		if _, err := db.Append(ctx, ledger.Batch{WorkstreamID: wsID, RunID: run.ID, Events: batch}); err != nil {
			return fmt.Errorf("append: %w", err)
		}
	}
	code := 0
	return db.FinishRun(ctx, run.ID, &code)
}

// Ev builds one event of a session; i makes its record id unique.
func Ev(harness, session string, i int, kind ledger.Kind, role, content string, meta map[string]any) ledger.EventInput {
	return ledger.EventInput{Harness: harness, NativeSessionID: session, SourceRecordID: fmt.Sprintf("r-%d", i),
		Kind: kind, Role: role, Content: content, Metadata: meta,
		OccurredAt: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)}
}

// ThreeRuns is claude -> codex -> claude: the claude session reads, edits
// and writes files and hits an error, with Malicious in a prompt and a tool
// result; codex receives the handoff of claude's events.
func ThreeRuns() []Run {
	c, x := "claude", "codex"
	first := []ledger.EventInput{
		Ev(c, "cs-1", 1, ledger.KindMessage, "user", "design the parser "+Malicious, nil),
		Ev(c, "cs-1", 2, ledger.KindToolCall, "assistant", `Read: {"file_path":"/src/fix/go.mod"}`, map[string]any{"tool": "Read", "call_id": "t1"}),
		Ev(c, "cs-1", 3, ledger.KindToolCall, "assistant", `Edit: {"file_path":"/src/fix/parser.go","old_string":"a","new_string":"b"}`, map[string]any{"tool": "Edit", "call_id": "t2"}),
		Ev(c, "cs-1", 4, ledger.KindToolCall, "assistant", `Write: {"file_path":"/src/fix/lexer.go","content":"package p"}`, map[string]any{"tool": "Write", "call_id": "t3"}),
		Ev(c, "cs-1", 5, ledger.KindToolCall, "assistant", `Bash: {"command":"go test ./..."}`, map[string]any{"tool": "Bash", "call_id": "t4"}),
		Ev(c, "cs-1", 6, ledger.KindToolResult, "tool", "FAIL parser_test.go:12 "+Malicious, map[string]any{"call_id": "t4", "is_error": true}),
		Ev(c, "cs-1", 7, ledger.KindMessage, "assistant", "The parser is designed; one test fails.", nil),
	}
	second := []ledger.EventInput{
		Ev(x, "xs-1", 8, ledger.KindMessage, "user", "implement the parser", nil),
		Ev(x, "xs-1", 9, ledger.KindToolCall, "assistant", `exec_command: {"cmd":"go build ./..."}`, map[string]any{"tool": "exec_command", "call_id": "c1"}),
		Ev(x, "xs-1", 10, ledger.KindMessage, "assistant", "Implemented.", nil),
	}
	third := []ledger.EventInput{
		Ev(c, "cs-1", 11, ledger.KindMessage, "user", "review the parser", nil),
		Ev(c, "cs-1", 12, ledger.KindMessage, "assistant", "Looks good.", nil),
	}
	return []Run{
		{Harness: c, Session: "cs-1", Events: first},
		{Harness: x, Session: "xs-1", Handoff: &[2]int64{0, 7}, Events: second},
		{Harness: c, Session: "cs-1", Handoff: &[2]int64{7, 10}, Events: third},
	}
}
