package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/internal/testledger"
	"github.com/ai-memory/ai-memory/transcript"
)

// TestPacketToolResults: the packet shows each tool result as the output
// the command printed, with a short status in its heading when the run
// failed or was cut, and none of the framing the harness wrote around it
// (Codex's Chunk ID / Wall time / Output: header, Claude's "Exit code N").
// One golden per transcript: real captures and hand-written failures.
func TestPacketToolResults(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not available")
	}
	golden, err := filepath.Abs("testdata/golden")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, fixture, harness, session, cwd, to string
	}{
		{"claude-2.1.332", "real/claude-2.1.332/print.jsonl", "claude", "", "/home/user/project", "codex"},
		{"claude-failed", "claude/print-mode.jsonl", "claude", "5b0e2c1a-1111-4a4a-8b8b-000000000001", "/work/repo", "codex"},
		{"codex-0.171.0", "real/codex-0.171.0/print.jsonl", "codex", "01a22a28-5bd7-7862-8a40-f5e3d389128f", "/home/user/project", "claude"},
		{"codex-failed", "codex/exec-tool-call.jsonl", "codex", "019a7b3c-2222-7c7c-9d9d-000000000002", "/work/repo", "claude"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("../../transcript/testdata", tc.fixture))
			if err != nil {
				t.Fatal(err)
			}
			home, repo := t.TempDir(), canonicalTemp(t)
			if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
				t.Fatalf("git init: %v: %s", err, out)
			}
			t.Setenv("HOME", home)
			data := filepath.Join(t.TempDir(), "data")
			t.Setenv("AI_MEMORY_HOME", data)
			t.Setenv("AI_MEMORY_LEDGER", testledger.Where(t, data).Location)
			t.Setenv("CLAUDE_CONFIG_DIR", "")
			t.Setenv("CODEX_HOME", "")
			t.Chdir(repo)
			session := tc.session
			var path string
			switch tc.harness {
			case "claude":
				if session == "" {
					session = claudeSessionOf(t, raw)
				}
				path = filepath.Join(transcript.ClaudeProjectDir(filepath.Join(home, ".claude"), repo), session+".jsonl")
			default:
				path = filepath.Join(home, ".codex", "sessions", "2026", "11", "30", "rollout-2026-11-30T01-00-00-"+session+".jsonl")
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(raw), tc.cwd, repo)), 0o600); err != nil {
				t.Fatal(err)
			}
			runCLI(t, "import", "--harness", tc.harness, "--session", session)
			packet := runCLI(t, "handoff", "--harness", tc.to)
			for _, frame := range []string{"Chunk ID", "Wall time", "Original token count", "Output:", "Exit code"} {
				if strings.Contains(packet, frame) {
					t.Errorf("packet holds framing %q", frame)
				}
			}
			checkGolden(t, filepath.Join(golden, "packet-tools-"+tc.name+".md"), scrubWorkstream(packet))
			if strings.HasSuffix(tc.name, "-failed") {
				if out := runCLI(t, "workstream-search", "--limit", "100"); !strings.Contains(out, "| tool (exit 1) |") {
					t.Errorf("workstream-search does not show the failed result's exit code:\n%s", out)
				}
			}
		})
	}
}

// claudeSessionOf is the sessionId of the first record that has one.
func claudeSessionOf(t *testing.T, raw []byte) string {
	const key = `"sessionId":"`
	i := strings.Index(string(raw), key)
	if i < 0 {
		t.Fatal("no sessionId in the fixture")
	}
	rest := string(raw[i+len(key):])
	return rest[:strings.IndexByte(rest, '"')]
}

// scrubWorkstream replaces the packet's workstream id, which is random.
func scrubWorkstream(packet string) string {
	const open = "Workstream 'default' ("
	i := strings.Index(packet, open)
	if i < 0 {
		return packet
	}
	j := strings.IndexByte(packet[i+len(open):], ')')
	return packet[:i+len(open)] + "WORKSTREAM_ID" + packet[i+len(open)+j:]
}
