package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/internal/testledger"
	"github.com/ai-memory/ai-memory/transcript"
)

// outOfOrderFixture is a real Claude Code 2.1.197 interactive transcript
// with its prompt record moved after the tool call it caused, the file order
// 2.1.197 wrote in a capture against the mock (issue 18).
const outOfOrderFixture = "../../transcript/testdata/claude/out-of-order-2.1.197.jsonl"

const outOfOrderSession = "6d184a6b-56f7-4b72-9bbf-d2e42273557e"

// TestImportKeepsConversationOrder: the ledger, `workstream-search --json`
// and the handoff packet show the prompt before the tool call it caused,
// and importing the transcript in one pass or after each appended line
// (as live import does while the agent writes) gives the same events,
// sequences, ids and order.
func TestImportKeepsConversationOrder(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not available")
	}
	raw, err := os.ReadFile(outOfOrderFixture)
	if err != nil {
		t.Fatal(err)
	}
	golden, err := filepath.Abs("testdata/golden")
	if err != nil {
		t.Fatal(err)
	}
	whole := importOrdered(t, raw, false)
	lines := importOrdered(t, raw, true)
	if whole.search != lines.search || whole.packet != lines.packet {
		t.Fatalf("line by line differs from one pass:\n%s\n%s\nvs\n%s\n%s", whole.search, whole.packet, lines.search, lines.packet)
	}
	checkGolden(t, filepath.Join(golden, "order-search.json"), whole.search)
	checkGolden(t, filepath.Join(golden, "order-packet.md"), whole.packet)
}

type orderedOutput struct{ search, packet string }

// importOrdered imports the fixture into a fresh data home, in one pass or
// after each line, and returns the newest events as JSON (volatile fields
// dropped) and the packet a Codex launch would get.
func importOrdered(t *testing.T, raw []byte, lineByLine bool) orderedOutput {
	home, data, repo := t.TempDir(), filepath.Join(t.TempDir(), "data"), canonicalTemp(t)
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	t.Setenv("HOME", home)
	t.Setenv("AI_MEMORY_HOME", data)
	t.Setenv("AI_MEMORY_LEDGER", testledger.Where(t, data).Location)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Chdir(repo)
	text := strings.ReplaceAll(string(raw), "/home/user/project", repo)
	path := filepath.Join(transcript.ClaudeProjectDir(filepath.Join(home, ".claude"), repo), outOfOrderSession+".jsonl")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	steps := []string{text}
	if lineByLine {
		steps = strings.SplitAfter(text, "\n")
	}
	written := ""
	for _, s := range steps {
		written += s
		if err := os.WriteFile(path, []byte(written), 0o600); err != nil {
			t.Fatal(err)
		}
		runCLI(t, "import", "--harness", "claude", "--session", outOfOrderSession, "--any-checkout")
	}
	search := runCLI(t, "workstream-search", "--json")
	var evs []struct {
		WorkstreamID string `json:"workstream_id"`
	}
	if err := json.Unmarshal([]byte(search), &evs); err != nil || len(evs) == 0 {
		t.Fatalf("workstream-search --json: %v\n%s", err, search)
	}
	packet := strings.ReplaceAll(runCLI(t, "handoff", "--harness", "codex"), evs[0].WorkstreamID, "WORKSTREAM_ID")
	return orderedOutput{search: stableEvents(t, search), packet: packet}
}

// stableEvents keeps the fields of workstream-search --json that do not
// depend on the clock or the data home.
func stableEvents(t *testing.T, js string) string {
	var evs []map[string]any
	if err := json.Unmarshal([]byte(js), &evs); err != nil {
		t.Fatalf("workstream-search --json: %v\n%s", err, js)
	}
	for _, e := range evs {
		delete(e, "workstream_id")
		delete(e, "created_at")
	}
	b, err := json.MarshalIndent(evs, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *updateScripts {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(want, []byte(got)) {
		t.Fatalf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
