package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/internal/secretcorpus"
	"github.com/ai-memory/ai-memory/internal/testledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
	"github.com/ai-memory/ai-memory/transcript"
)

// TestImportRedactsCorpus is the end-to-end check of issue 10, item 1:
// every secret shape of the corpus, planted in real-format Claude and Codex
// transcripts in each position a transcript can hold text (user message,
// assistant message, tool call input, tool result), is imported by the real
// `ai-memory import`, and then no fragment of any secret may be found in
// any file of the data home (ledger.db, its WAL, the segments), in
// `workstream-search` output (text and --json) for queries that hit those
// events, or in `handoff --json`. The benign texts must come back unchanged.
func TestImportRedactsCorpus(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not available")
	}
	shapes, benign := secretcorpus.Shapes(), secretcorpus.Benign()
	home, data, repo := t.TempDir(), filepath.Join(t.TempDir(), "data"), canonicalTemp(t)
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	t.Setenv("HOME", home)
	t.Setenv("AI_MEMORY_HOME", data)
	t.Setenv("AI_MEMORY_LEDGER", testledger.Where(t, data).Location)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	t.Chdir(repo)

	texts := make([]string, 0, len(shapes)+len(benign))
	for _, s := range shapes {
		texts = append(texts, s.Text)
	}
	texts = append(texts, benign...)
	writeClaudeCorpus(t, filepath.Join(home, ".claude"), repo, texts)
	writeCodexCorpus(t, filepath.Join(home, ".codex"), repo, texts)

	out := runCLI(t, "import", "--json")
	if !strings.Contains(out, `"harness": "claude"`) || !strings.Contains(out, `"harness": "codex"`) {
		t.Fatalf("import did not import both sessions:\n%s", out)
	}
	finder := secretcorpus.NewFinder(shapes)
	leaks := map[string][]int{}
	check := func(where string, b []byte) {
		if hits := finder.Find(b); len(hits) > 0 {
			leaks[where] = hits
		}
	}
	var stored []string
	if err := filepath.WalkDir(data, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		stored = append(stored, filepath.Base(p))
		check(p, b)
		// Segments are compressed: a secret in one would not show in its raw
		// bytes, so check what the segment decodes to as well.
		if strings.Contains(p, string(filepath.Separator)+"segments"+string(filepath.Separator)) {
			plain, err := durable.ReadSegmentFile(p)
			if err != nil {
				return err
			}
			check(p+" (decoded)", plain)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// (on PostgreSQL the ledger is on the server: what it holds is read
	// back through search and handoff below)
	if !testledger.OnPostgres() && !strings.Contains(strings.Join(stored, " "), "ledger.db") || !strings.Contains(strings.Join(stored, " "), ".jsonl") {
		t.Fatalf("data home lacks the ledger or a segment: %v", stored)
	}
	for i := range shapes {
		q := tag(i)
		check("workstream-search "+q, []byte(runCLI(t, "workstream-search", "--limit", "100", q)))
		js := runCLI(t, "workstream-search", "--json", "--limit", "100", q)
		check("workstream-search --json "+q, []byte(js))
		if n := strings.Count(js, `"event_id"`); n != 9 {
			t.Errorf("search %s found %d events, want 9 (4 Claude, 5 Codex)", q, n)
		}
	}
	packet := runCLI(t, "handoff", "--json", "--harness", "claude")
	if !strings.Contains(packet, "zqshape") {
		t.Fatalf("handoff packet holds none of the imported events:\n%s", packet)
	}
	check("handoff --json", []byte(packet))
	for where, hits := range leaks {
		for _, i := range hits {
			t.Errorf("%s leaks %s (%s)", where, shapes[i].Name, shapes[i].Family)
		}
	}
	checkBenignSurvives(t, benign, len(shapes))
}

// checkBenignSurvives searches each benign text's events and requires the
// text, unchanged, in every one of them.
func checkBenignSurvives(t *testing.T, benign []string, first int) {
	t.Helper()
	for j, b := range benign {
		var events []struct{ Content string }
		js := runCLI(t, "workstream-search", "--json", "--limit", "100", tag(first+j))
		if err := json.Unmarshal([]byte(js), &events); err != nil {
			t.Fatalf("search output is not JSON: %v\n%s", err, js)
		}
		if len(events) != 9 {
			t.Errorf("benign %q: %d events, want 9", b, len(events))
		}
		escaped := string(bytes.Trim(secretcorpus.JSON(b), `"`)) // as a tool call's JSON input holds it
		for _, e := range events {
			if !strings.Contains(e.Content, b) && !strings.Contains(e.Content, escaped) &&
				!strings.Contains(e.Content, strings.ReplaceAll(b, "\n", "\n+")) {
				t.Errorf("benign text changed: %q not in\n%s", b, e.Content)
			}
		}
	}
}

// tag is the search word planted in every position of corpus text i.
func tag(i int) string { return fmt.Sprintf("zqshape%03dmark", i) }

func runCLI(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(append([]string{"ai-memory"}, args...), stdio{in: os.Stdin, out: &out, err: &errb}); code != 0 {
		t.Fatalf("ai-memory %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

func canonicalTemp(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// jsonl writes records as a JSONL file, creating its directory.
func jsonl(t *testing.T, path string, recs []map[string]any) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, r := range recs {
		b.Write(secretcorpus.JSON(r))
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

func stamp(i int) string { return fmt.Sprintf("2026-11-30T02:%02d:%02d.000Z", i/60%60, i%60) }

// writeClaudeCorpus writes one Claude Code session (2.1.332 record shapes)
// with four events per text: the prompt, the reply, a Write tool call
// whose input holds the text in a .env file, and its cat output.
func writeClaudeCorpus(t *testing.T, root, cwd string, texts []string) {
	const sid = "5e1f0c3a-8b2d-4c6e-9a7f-0d1e2f3a4b5c"
	base := func(typ string, i, k int) map[string]any {
		return map[string]any{"parentUuid": nil, "isSidechain": false, "type": typ,
			"uuid": fmt.Sprintf("00000000-0000-4000-8000-%06d%06d", i, k), "timestamp": stamp(4*i + k),
			"userType": "external", "entrypoint": "sdk-cli", "cwd": cwd, "sessionId": sid, "version": "2.1.332", "gitBranch": "main"}
	}
	with := func(m map[string]any, k string, v any) map[string]any { m[k] = v; return m }
	var recs []map[string]any
	for i, text := range texts {
		w, call := tag(i)+" ", fmt.Sprintf("toolu_%06d", i)
		recs = append(recs,
			with(base("user", i, 0), "message", map[string]any{"role": "user", "content": w + secretcorpus.UserText(text)}),
			with(base("assistant", i, 1), "message", map[string]any{"role": "assistant", "type": "message", "model": "claude-opus-5-5",
				"content": []any{map[string]any{"type": "text", "text": w + secretcorpus.AssistantText(text)}}}),
			with(base("assistant", i, 2), "message", map[string]any{"role": "assistant", "type": "message", "model": "claude-opus-5-5",
				"content": []any{map[string]any{"type": "tool_use", "id": call, "name": "Write",
					"input": map[string]any{"file_path": cwd + "/.env", "content": w + secretcorpus.EnvFile(text)}}}}),
			with(with(base("user", i, 3), "message", map[string]any{"role": "user", "content": []any{map[string]any{
				"tool_use_id": call, "type": "tool_result", "content": w + secretcorpus.ToolResult(text), "is_error": false}}}),
				"toolUseResult", map[string]any{"stdout": secretcorpus.ToolResult(text), "stderr": ""}))
	}
	jsonl(t, filepath.Join(transcript.ClaudeProjectDir(root, cwd), sid+".jsonl"), recs)
}

// writeCodexCorpus writes one Codex rollout (0.171.0 record shapes) with
// five events per text: the prompt, the reply, an exec_command writing a
// .env file by heredoc (arguments are a JSON string, so the text is
// escaped twice on disk), an apply_patch adding it, and the shell output.
func writeCodexCorpus(t *testing.T, root, cwd string, texts []string) {
	const sid = "01a22a28-5bd7-7862-8a40-c0de0c0de001"
	rec := func(i int, typ string, payload map[string]any) map[string]any {
		return map[string]any{"timestamp": stamp(i), "type": typ, "payload": payload}
	}
	recs := []map[string]any{rec(0, "session_meta", map[string]any{"id": sid, "session_id": sid, "timestamp": stamp(0),
		"cwd": cwd, "originator": "codex_exec", "cli_version": "0.171.0", "source": "exec", "model_provider": "mock"})}
	for i, text := range texts {
		w, call := tag(i)+" ", fmt.Sprintf("call_%06d", i)
		args := string(secretcorpus.JSON(map[string]any{"cmd": w + "cat > .env <<'EOF'\n" + secretcorpus.EnvFile(text) + "EOF"}))
		patch := "*** Begin Patch\n*** Add File: " + w + ".env\n+" + strings.ReplaceAll(text, "\n", "\n+") + "\n*** End Patch"
		recs = append(recs,
			rec(i, "response_item", map[string]any{"type": "message", "id": fmt.Sprintf("msg_u%06d", i), "role": "user",
				"content": []any{map[string]any{"type": "input_text", "text": w + secretcorpus.UserText(text)}}}),
			rec(i, "event_msg", map[string]any{"type": "user_message", "message": w + secretcorpus.UserText(text)}),
			rec(i, "response_item", map[string]any{"type": "message", "id": fmt.Sprintf("msg_a%06d", i), "role": "assistant",
				"content": []any{map[string]any{"type": "output_text", "text": w + secretcorpus.AssistantText(text)}}}),
			rec(i, "response_item", map[string]any{"type": "function_call", "id": "fc_" + call, "name": "exec_command",
				"arguments": args, "call_id": call}),
			rec(i, "response_item", map[string]any{"type": "custom_tool_call", "status": "completed", "call_id": call + "p",
				"name": "apply_patch", "input": patch}),
			rec(i, "response_item", map[string]any{"type": "function_call_output", "call_id": call,
				"output": "Chunk ID: 1a2b\nWall time: 0.0012 seconds\nProcess exited with code 0\nOutput:\n" + w + secretcorpus.ToolResult(text)}))
	}
	jsonl(t, filepath.Join(root, "sessions", "2026", "11", "30", "rollout-2026-11-30T02-00-00-"+sid+".jsonl"), recs)
}
