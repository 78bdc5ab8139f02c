package harnesstest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ai-memory/ai-memory/transcript"
	"github.com/google/uuid"
)

// GrokVersion is the Grok Build release whose flags and store the fake
// follows (read in xai-org/grok-build; it installs from x.ai only).
const GrokVersion = "1.0.6"

// FakeGrokMain runs the fake Grok Build CLI on the process's argv and
// stdio and returns its exit code.
func FakeGrokMain() int {
	inv, err := osInvocation()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake grok:", err)
		return 1
	}
	return runGrok(inv)
}

func runGrok(inv invocation) int {
	k, err := readKnobs(inv.getenv)
	if err != nil {
		fmt.Fprintln(inv.stderr, "fake grok:", err)
		return 2
	}
	entry := logEntry{Harness: "grok"}
	code := grokMain(inv, k, &entry)
	if err := writeLog(inv, k, entry); err != nil {
		fmt.Fprintln(inv.stderr, "fake grok:", err)
		return 1
	}
	return finish(inv, k, code)
}

func grokMain(inv invocation, k knobs, entry *logEntry) int {
	a, err := parseGrokArgs(inv.args)
	switch {
	case err != nil:
		fmt.Fprintln(inv.stderr, "error:", err)
		return 2
	case a.version:
		fmt.Fprintf(inv.stdout, "grok %s (fake)\n", GrokVersion)
		return 0
	case a.help:
		fmt.Fprintln(inv.stdout, "Grok Build TUI\n\nUsage: grok [OPTIONS] [COMMAND]")
		return 0
	case a.utility:
		fmt.Fprintf(inv.stdout, "grok %s: nothing to do in the fake\n", a.sub)
		return 0
	}
	entry.Context = a.rules
	id, err := grokRun(inv, k, a)
	entry.SessionID = id
	if err != nil {
		fmt.Fprintln(inv.stderr, "Error:", err)
		return 1
	}
	return 0
}

// grokRun selects the session and runs the print turn or the prompt loop.
func grokRun(inv invocation, k knobs, a grokArgs) (string, error) {
	print := a.prompt != ""
	if !print && !inv.stdinTTY {
		return "", errors.New("the Grok TUI needs a terminal; use -p")
	}
	home := inv.getenv("GROK_HOME")
	if home == "" {
		home = filepath.Join(inv.getenv("HOME"), ".grok")
	}
	root := filepath.Join(home, "sessions")
	dir := filepath.Join(root, transcript.GrokCwdDir(inv.cwd))
	id, fresh, err := grokSelect(root, dir, a)
	if err != nil {
		return "", err
	}
	sdir := filepath.Join(dir, id)
	if err := os.MkdirAll(sdir, 0o700); err != nil {
		return id, fmt.Errorf("create session dir: %w", err)
	}
	w, err := openJSONL(filepath.Join(sdir, "chat_history.jsonl"), inv, k)
	if err != nil {
		return id, err
	}
	defer w.close()
	if fresh {
		w.write(map[string]any{"type": "system", "content": "You are Grok Build.\n" + a.rules})
	}
	turn := func(p string) string {
		grokTurn(w, p)
		return replyFor(p, toolOutputFor(p))
	}
	if print {
		fmt.Fprintln(inv.stdout, turn(a.prompt))
	} else if err := promptLoop(inv, []string{"/quit", "/exit"}, func(p string) (string, error) { return turn(p), w.err }); err != nil {
		return id, err
	}
	if err := w.close(); err != nil {
		return id, err
	}
	return id, writeGrokSummary(sdir, id, inv.cwd)
}

// grokSelect returns the session id: -s creates (errors when it exists),
// -r/--load resumes (errors when missing; bare -r = newest), -c continues
// the newest, else a new uuid.
func grokSelect(root, dir string, a grokArgs) (id string, fresh bool, err error) {
	switch {
	case a.sessionID != "":
		if _, err := uuid.Parse(a.sessionID); err != nil {
			return "", false, fmt.Errorf("invalid session id %q: must be a UUID", a.sessionID)
		}
		if m, _ := filepath.Glob(filepath.Join(root, "*", a.sessionID)); len(m) > 0 {
			return "", false, fmt.Errorf("session %s already exists; use --resume", a.sessionID)
		}
		return a.sessionID, true, nil
	case a.resume != nil && *a.resume != "":
		if m, _ := filepath.Glob(filepath.Join(dir, *a.resume, "chat_history.jsonl")); len(m) == 0 {
			return "", false, fmt.Errorf("session not found: %s", *a.resume)
		}
		return *a.resume, false, nil
	case a.resume != nil || a.cont:
		if id := newestGrokSession(dir); id != "" {
			return id, false, nil
		}
	}
	return uuid.NewString(), true, nil
}

func newestGrokSession(dir string) string {
	m, _ := filepath.Glob(filepath.Join(dir, "*", "chat_history.jsonl"))
	sort.Slice(m, func(i, j int) bool {
		fi, _ := os.Stat(m[i])
		fj, _ := os.Stat(m[j])
		return fi != nil && fj != nil && fi.ModTime().After(fj.ModTime())
	})
	if len(m) == 0 {
		return ""
	}
	return filepath.Base(filepath.Dir(m[0]))
}

// grokTurn appends one exchange as ConversationItems: the user item, for
// RUN_TOOL an assistant item with a tool call and its tool_result, then
// the reply.
func grokTurn(w *jsonlWriter, prompt string) {
	w.write(map[string]any{"type": "user", "content": []any{map[string]any{"type": "text", "text": prompt}}})
	out := toolOutputFor(prompt)
	if out != "" {
		call := "call_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:12]
		w.write(map[string]any{"type": "assistant", "content": "", "model_id": "grok-build",
			"tool_calls": []any{map[string]any{"id": call, "name": "run_terminal_cmd", "arguments": `{"command":"echo hello"}`}}})
		w.write(map[string]any{"type": "tool_result", "tool_call_id": call, "content": out})
	}
	w.write(map[string]any{"type": "assistant", "content": replyFor(prompt, out), "model_id": "grok-build"})
}

// writeGrokSummary writes the session's index entry ({"info":{"id","cwd"}},
// the fields the anchor's reader checks, plus a title).
func writeGrokSummary(dir, id, cwd string) error {
	b, _ := json.Marshal(map[string]any{"info": map[string]any{"id": id, "cwd": cwd, "title": "fake session"}})
	return os.WriteFile(filepath.Join(dir, "summary.json"), b, 0o600)
}

// grokFake is the fakes-list entry.
// --always-approve is Grok's own name for yolo (--yolo is its alias, and
// the same token as the wrapper's).
var grokFake = Fake{Harness: "grok", Main: FakeGrokMain, Print: "-p", run: runGrok, Vars: map[string]string{
	"YOLO": "--always-approve", "SELECT": "--continue",
	"VERSION_OUT": "grok " + GrokVersion, "UTIL": "mcp", "UTIL_ARG": "list",
	"STORE": ".grok/sessions", "TRANSCRIPTS": ".grok/sessions/*/*/chat_history.jsonl",
	"FRESH_RE":       `"argv":\["-p","[^"]*","--session-id","` + uuidRE + `"`,
	"RESUME_RE":      `"argv":\["-p","[^"]*","--resume","` + uuidRE + `"`,
	"BARE_RESUME_RE": `"argv":\["--resume","` + uuidRE + `"\]`,
}}
