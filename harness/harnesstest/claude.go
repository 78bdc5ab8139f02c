package harnesstest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Version strings of the real CLIs the fakes imitate.
const (
	ClaudeVersion = "2.1.332"
	CodexVersion  = "0.171.0"
)

// FakeClaudeMain runs the fake Claude Code CLI on the process's argv and
// stdio and returns its exit code.
func FakeClaudeMain() int {
	inv, err := osInvocation()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake claude:", err)
		return 1
	}
	return runClaude(inv)
}

// claudeExit is an error with the exit code the real CLI would use.
type claudeExit struct {
	code int
	msg  string
}

func (e claudeExit) Error() string { return e.msg }

func runClaude(inv invocation) int {
	k, err := readKnobs(inv.getenv)
	if err != nil {
		fmt.Fprintln(inv.stderr, "fake claude:", err)
		return 2
	}
	entry := logEntry{Harness: "claude"}
	code := claudeMain(inv, k, &entry)
	entry.MCP = claudeMCP(inv.args)
	if err := writeLog(inv, k, entry); err != nil {
		fmt.Fprintln(inv.stderr, "fake claude:", err)
		return 1
	}
	return finish(inv, k, code)
}

// claudeMain dispatches version, help, utilities and sessions.
func claudeMain(inv invocation, k knobs, entry *logEntry) int {
	a, err := parseClaudeArgs(inv.args)
	switch {
	case err != nil:
		fmt.Fprintln(inv.stderr, err)
		return 1
	case a.utility != "":
		fmt.Fprintf(inv.stdout, "claude %s: nothing to do in the fake\n", a.utility)
		return 0
	case a.version:
		fmt.Fprintf(inv.stdout, "%s (Claude Code)\n", ClaudeVersion)
		return 0
	case a.help:
		fmt.Fprintln(inv.stdout, "Usage: claude [options] [command] [prompt]\n\nClaude Code - starts an interactive session by default, use -p/--print for non-interactive output")
		return 0
	}
	r := &claudeRun{inv: inv, k: k, a: a}
	err = r.run()
	entry.Context, entry.SessionID = strings.Join(r.contexts, "\n"), r.sessionID
	var ce claudeExit
	if errors.As(err, &ce) {
		fmt.Fprintln(inv.stderr, ce.msg)
		return ce.code
	}
	if err != nil {
		fmt.Fprintln(inv.stderr, "Error:", err)
		return 1
	}
	return 0
}

// claudeRun is one session of the fake.
type claudeRun struct {
	inv        invocation
	k          knobs
	a          claudeArgs
	store      string // $CLAUDE_CONFIG_DIR or ~/.claude
	sessionID  string
	source     string // "startup" or "resume", as given to SessionStart hooks
	path       string // transcript
	w          *jsonlWriter
	parent     string // uuid of the last record, for parentUuid
	branch     string
	entrypoint string
	contexts   []string
}

// run resolves the session, runs the hooks, then one print-mode turn or the
// interactive loop.
func (r *claudeRun) run() error {
	r.store = r.inv.getenv("CLAUDE_CONFIG_DIR")
	if r.store == "" {
		r.store = filepath.Join(r.inv.getenv("HOME"), ".claude")
	}
	r.branch = gitBranch(r.inv.cwd)
	print := r.a.print || !r.inv.stdinTTY
	r.entrypoint = map[bool]string{true: "sdk-cli", false: "cli"}[print]
	prompt, err := r.printPrompt(print)
	if err != nil {
		return err
	}
	if err := r.resolveSession(); err != nil {
		return err
	}
	if err := r.openTranscript(); err != nil {
		return err
	}
	defer r.w.close()
	if print {
		r.record(map[string]any{"type": "queue-operation", "operation": "enqueue", "timestamp": r.ts(), "sessionId": r.sessionID, "content": prompt})
	}
	if err := r.sessionStart(); err != nil {
		return err
	}
	if print {
		return r.printTurn(prompt)
	}
	return r.interactive()
}

// printPrompt is the prompt of a print-mode run: the argument, else stdin.
func (r *claudeRun) printPrompt(print bool) (string, error) {
	if !print || r.a.prompt != "" {
		return r.a.prompt, nil
	}
	data, err := io.ReadAll(r.inv.stdin)
	if err != nil {
		return "", fmt.Errorf("read stdin: %w", err)
	}
	if p := strings.TrimSpace(string(data)); p != "" {
		return p, nil
	}
	return "", claudeExit{1, "Error: Input must be provided either through stdin or as a prompt argument when using --print"}
}

// printTurn answers one prompt and prints the result in --output-format.
func (r *claudeRun) printTurn(prompt string) error {
	reply := r.turn(prompt)
	r.record(map[string]any{"type": "last-prompt", "lastPrompt": prompt, "sessionId": r.sessionID})
	r.record(map[string]any{"type": "cost-state", "sessionId": r.sessionID, "totalCostUsd": 0})
	if err := r.w.close(); err != nil {
		return err
	}
	switch r.a.outputFormat {
	case "", "text":
		fmt.Fprintln(r.inv.stdout, reply)
	case "json", "stream-json":
		result := map[string]any{"type": "result", "subtype": "success", "is_error": false, "num_turns": 1, "result": reply, "session_id": r.sessionID, "total_cost_usd": 0}
		if r.a.outputFormat == "stream-json" {
			writeJSONLine(r.inv.stdout, map[string]any{"type": "system", "subtype": "init", "session_id": r.sessionID, "cwd": r.inv.cwd})
		}
		writeJSONLine(r.inv.stdout, result)
	default:
		return claudeExit{1, fmt.Sprintf("Error: Invalid output format: %s", r.a.outputFormat)}
	}
	return nil
}

// interactive answers the optional initial prompt, then prompts on stdin.
func (r *claudeRun) interactive() error {
	if r.a.prompt != "" {
		fmt.Fprintln(r.inv.stdout, r.turn(r.a.prompt))
	}
	err := promptLoop(r.inv, []string{"/exit", "/quit"}, func(p string) (string, error) { return r.turn(p), r.w.err })
	if err != nil {
		return err
	}
	fmt.Fprintf(r.inv.stdout, "Resume this session with:\nclaude --resume %s\n", r.sessionID)
	return r.w.close()
}

func writeJSONLine(w io.Writer, v any) {
	line, _ := json.Marshal(v)
	fmt.Fprintf(w, "%s\n", line)
}

// gitBranch reads the branch of the repository holding dir, "" if none.
func gitBranch(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		head, err := os.ReadFile(filepath.Join(d, ".git", "HEAD"))
		if err == nil {
			ref := strings.TrimSpace(string(head))
			if b, ok := strings.CutPrefix(ref, "ref: refs/heads/"); ok {
				return b
			}
			return "HEAD"
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
