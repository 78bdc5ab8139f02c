package harnesstest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/transcript"
	"github.com/google/uuid"
)

// applyPlan writes the plan's files and environment the way the launcher
// must, so the fake sees exactly what a real child would.
func (f *fakeEnv) applyPlan(p harness.Plan) {
	f.t.Helper()
	for _, file := range p.Files {
		if err := os.WriteFile(file.Path, []byte(file.Content), 0o600); err != nil {
			f.t.Fatal(err)
		}
	}
	for k, v := range p.Env {
		f.env[k] = v
	}
}

// planFor parses args and builds the plan for d, as the launcher does.
func planFor(t *testing.T, name string, args []string, d harness.Decision) harness.Plan {
	t.Helper()
	h, _ := harness.Lookup(name)
	in, err := h.Planner.Parse(args, false)
	if err != nil {
		t.Fatal(err)
	}
	d.Yolo = d.Yolo || in.Yolo
	p, err := h.Planner.Build(in, d)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDelivery_ClaudeHook plans a fresh and then a resumed Claude run with a
// packet, runs the fake with ai-memory's real hook (this test binary), and
// checks that the packet reached the model both times and was acknowledged.
func TestDelivery_ClaudeHook(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ lines, parts int }{{100, 1}, {1500, 4}} {
		f := newFakeEnv(t)
		f.env["HARNESSTEST_MAIN"] = "hook"
		packet := "<!-- ai-memory:managed-workstream-packet:v1 -->\n" + strings.Repeat("event 'x' \"y\" $HOME\n", tc.lines)
		id := uuid.NewString()
		for i, linked := range []string{"", id} {
			run := filepath.Join(f.home, "run", string(rune('a'+i)))
			if err := os.MkdirAll(run, 0o700); err != nil {
				t.Fatal(err)
			}
			p := planFor(t, "claude", []string{"-p", "hello"}, harness.Decision{NewSessionID: id, Resume: linked,
				Packet: packet, RunDir: run, HookCommand: []string{exe, "-test.run=^$"}})
			f.applyPlan(p)
			if res := f.run(runClaude, "", false, p.Args...); res.code != 0 {
				t.Fatalf("fake claude: %+v", res)
			}
			checkClaudeContext(t, f.lastLog().Context, packet, tc.parts)
			if !harness.Acknowledged(p.Env[harness.EnvPacketAckDir], id) {
				t.Errorf("%d parts, run %d: not acknowledged", tc.parts, i)
			}
		}
		attachments := 0
		for _, r := range byType(records(t, f.claudeTranscript(id)), "attachment") {
			if r["attachment"].(map[string]any)["type"] == "hook_additional_context" {
				attachments++
			}
		}
		if attachments != tc.parts { // recorded on the fresh run only, like Claude 2.1.332
			t.Errorf("%d parts: %d hook_additional_context attachments, want %d", tc.parts, attachments, tc.parts)
		}
	}
}

// checkClaudeContext checks that every part fits Claude's limit and that
// the parts, without their headers, are the packet. The log joins the
// contexts of the hooks with "\n".
func checkClaudeContext(t *testing.T, context, packet string, parts int) {
	t.Helper()
	if strings.Contains(context, "persisted-output") {
		t.Fatal("the packet was moved out of the prompt by Claude's 10,000-character rule")
	}
	if parts == 1 {
		if context != packet {
			t.Errorf("context = %.200q, want the packet", context)
		}
		return
	}
	const header = "[ai-memory handoff packet, part "
	pieces := strings.Split("\n"+context, "\n"+header)[1:]
	if len(pieces) != parts {
		t.Fatalf("context has %d parts, want %d", len(pieces), parts)
	}
	var rebuilt strings.Builder
	for _, piece := range pieces {
		_, body, _ := strings.Cut(piece, "\n")
		if len(utf16.Encode([]rune(header+piece))) > 10000 {
			t.Error("a part exceeds 10,000 characters")
		}
		rebuilt.WriteString(body)
	}
	if rebuilt.String() != packet {
		t.Errorf("the parts rebuild %.100q…, want the packet", rebuilt.String())
	}
}

// TestDelivery_ClaudeLargeContextIsPersisted checks the fake applies
// Claude's 10,000-character rule to a hook that ignores it.
func TestDelivery_ClaudeLargeContextIsPersisted(t *testing.T) {
	f := newFakeEnv(t)
	big := filepath.Join(f.home, "big.txt")
	if err := os.WriteFile(big, []byte(strings.Repeat("z", 12000)), 0o600); err != nil {
		t.Fatal(err)
	}
	settings := `{"hooks":{"SessionStart":[{"matcher":"startup","hooks":[{"type":"command","command":"cat '` + big + `'"}]}]}}`
	if res := f.run(runClaude, "", false, "-p", "x", "--settings", settings); res.code != 0 {
		t.Fatal(res)
	}
	ctx := f.lastLog().Context
	if !strings.Contains(ctx, "Output too large (12000 characters)") || len(ctx) > 2500 {
		t.Errorf("context = %.120q…, want a persisted-output preview", ctx)
	}
}

// TestDelivery_Codex plans a fresh exec and then a resume of the same
// session and checks what reaches the model each time.
func TestDelivery_Codex(t *testing.T) {
	f := newFakeEnv(t)
	run := filepath.Join(f.home, "run")
	if err := os.MkdirAll(run, 0o700); err != nil {
		t.Fatal(err)
	}
	packet := "<!-- ai-memory:managed-workstream-packet:v1 -->\nline \"one\"\\\n\ttwo\x01"
	p := planFor(t, "codex", []string{"exec", "--json", "first"}, harness.Decision{Packet: packet, RunDir: run})
	f.applyPlan(p)
	res := f.run(runCodex, "", false, p.Args...)
	if res.code != 0 {
		t.Fatalf("fresh: %+v", res)
	}
	first := f.lastLog()
	if first.Context != packet {
		t.Errorf("fresh context = %q, want the packet", first.Context)
	}
	rollout := f.codexRollout(first.SessionID)
	// The planner reads the resumed session's own base instructions from
	// its rollout, through the session the launcher looked up.
	lookup := func(id string) (transcript.Session, bool) {
		return transcript.Session{ID: id, Path: rollout}, id == first.SessionID
	}
	p = planFor(t, "codex", []string{"exec", "second"}, harness.Decision{Packet: "NEWER PACKET", RunDir: run,
		Resume: first.SessionID, Session: lookup})
	f.applyPlan(p)
	if res := f.run(runCodex, "", false, p.Args...); res.code != 0 {
		t.Fatalf("resume: %+v", res)
	}
	second := f.lastLog()
	if second.Context != "NEWER PACKET" || second.BaseInstructionsKept == nil || !*second.BaseInstructionsKept || second.SessionID != first.SessionID {
		t.Errorf("resume log = %+v, want the packet with base instructions kept", second)
	}
	// What the reference warns about: developer_instructions on resume is ignored.
	res = f.run(runCodex, "", false, "-c", `developer_instructions="X"`, "exec", "resume", first.SessionID, "third")
	if res.code != 0 || f.lastLog().Context != "" {
		t.Errorf("developer_instructions on resume reached the model: %+v %q", res, f.lastLog().Context)
	}
}

func (f *fakeEnv) codexRollout(id string) string {
	f.t.Helper()
	m, _ := filepath.Glob(filepath.Join(f.home, ".codex", "sessions", "*", "*", "*", "rollout-*-"+id+".jsonl"))
	if len(m) != 1 {
		f.t.Fatalf("rollouts for %s: %q", id, m)
	}
	return m[0]
}
