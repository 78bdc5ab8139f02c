package harnesstest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// codexDefaultBase stands in for Codex's own base instructions.
const codexDefaultBase = "You are Codex, a coding agent. (fake codex base instructions)"

// FakeCodexMain runs the fake Codex CLI on the process's argv and stdio and
// returns its exit code.
func FakeCodexMain() int {
	inv, err := osInvocation()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake codex:", err)
		return 1
	}
	return runCodex(inv)
}

// codexExit is an error with the exit code the real CLI would use.
type codexExit struct {
	code int
	msg  string
}

func (e codexExit) Error() string { return e.msg }

func runCodex(inv invocation) int {
	k, err := readKnobs(inv.getenv)
	if err != nil {
		fmt.Fprintln(inv.stderr, "fake codex:", err)
		return 2
	}
	entry := logEntry{Harness: "codex"}
	code := codexMain(inv, k, &entry)
	entry.MCP = codexMCP(inv.args)
	if err := writeLog(inv, k, entry); err != nil {
		fmt.Fprintln(inv.stderr, "fake codex:", err)
		return 1
	}
	return finish(inv, k, code)
}

func codexMain(inv invocation, k knobs, entry *logEntry) int {
	a, err := parseCodexArgs(inv.args)
	switch {
	case err != nil:
		return reportCodex(inv, err)
	case a.version:
		fmt.Fprintf(inv.stdout, "codex-cli %s\n", CodexVersion)
		return 0
	case a.help:
		fmt.Fprintln(inv.stdout, "Codex CLI\n\nUsage: codex [OPTIONS] [PROMPT]\n       codex [OPTIONS] <COMMAND> [ARGS]")
		return 0
	case codexUtilities[a.sub] || a.execUtility != "":
		fmt.Fprintf(inv.stdout, "codex %s%s: nothing to do in the fake\n", a.sub, a.execUtility)
		return 0
	}
	r := &codexRun{inv: inv, k: k, a: a}
	err = r.run()
	entry.Context, entry.SessionID, entry.BaseInstructionsKept = r.context, r.id, r.baseKept
	return reportCodex(inv, err)
}

func reportCodex(inv invocation, err error) int {
	var ce codexExit
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ce):
		fmt.Fprintln(inv.stderr, ce.msg)
		return ce.code
	}
	fmt.Fprintln(inv.stderr, "Error:", err)
	return 1
}

// codexRun is one session of the fake.
type codexRun struct {
	inv      invocation
	k        knobs
	a        codexArgs
	store    string
	id       string
	path     string
	w        *jsonlWriter
	devInstr string
	instFile string // content of model_instructions_file, if set
	base     string // the session's recorded base instructions
	context  string
	baseKept *bool
	turnNo   int
}

// run resolves config and session, then runs exec's one turn or the
// interactive loop.
func (r *codexRun) run() error {
	r.store = r.inv.getenv("CODEX_HOME")
	if r.store == "" {
		r.store = filepath.Join(r.inv.getenv("HOME"), ".codex")
	}
	if err := r.readConfig(); err != nil {
		return err
	}
	exec := r.a.sub == "exec"
	if !exec && !r.inv.stdinTTY {
		return codexExit{1, "Error: stdin is not a terminal"}
	}
	prompt, err := r.execPrompt(exec)
	if err != nil {
		return err
	}
	if err := r.openSession(); err != nil {
		return err
	}
	defer r.w.close()
	if exec {
		return r.execTurn(prompt)
	}
	return r.interactive()
}

// readConfig applies -c overrides in order (the last one wins).
func (r *codexRun) readConfig() error {
	values := map[string]string{}
	for _, raw := range r.a.configs {
		key, value, ok := strings.Cut(raw, "=")
		if !ok {
			return codexExit{1, fmt.Sprintf("Error: Invalid override (missing '='): %s", raw)}
		}
		values[strings.TrimSpace(key)] = decodeTOMLValue(value)
	}
	r.devInstr = values["developer_instructions"]
	if f, ok := values["model_instructions_file"]; ok {
		if !filepath.IsAbs(f) {
			f = filepath.Join(r.inv.cwd, f)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return codexExit{1, fmt.Sprintf("Error loading config: failed to read model instructions file %s: %v", f, err)}
		}
		r.instFile = string(data)
	}
	return nil
}

// decodeTOMLValue reads a -c value like Codex: a TOML string when it is one,
// else the raw text without surrounding quotes. Basic strings are decoded
// with Go's unquoting, which covers the escapes ai-memory produces.
func decodeTOMLValue(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		if s, err := strconv.Unquote(v); err == nil {
			return s
		}
	}
	if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
		return v[1 : len(v)-1]
	}
	return strings.Trim(v, `"'`)
}

// execPrompt is exec's prompt: the argument, or stdin for "-" or none.
func (r *codexRun) execPrompt(exec bool) (string, error) {
	if !exec || (r.a.prompt != "" && r.a.prompt != "-") {
		return r.a.prompt, nil
	}
	if !r.inv.stdinTTY {
		data, err := io.ReadAll(r.inv.stdin)
		if err != nil {
			return "", fmt.Errorf("read stdin: %w", err)
		}
		if p := strings.TrimSpace(string(data)); p != "" {
			return p, nil
		}
	}
	return "", codexExit{1, "No prompt provided. Either specify one as an argument or pipe the prompt into stdin."}
}

// interactive answers the optional initial prompt, then prompts on stdin.
func (r *codexRun) interactive() error {
	if r.a.prompt != "" {
		fmt.Fprintln(r.inv.stdout, r.turn(r.a.prompt).reply)
	}
	err := promptLoop(r.inv, []string{"/quit", "/exit"}, func(p string) (string, error) { return r.turn(p).reply, r.w.err })
	if err != nil {
		return err
	}
	fmt.Fprintf(r.inv.stdout, "To continue this session, run codex resume %s\n", r.id)
	return r.w.close()
}

// execTurn runs one turn and prints it as exec does, with --json events or
// the stderr banner and the final message on stdout.
func (r *codexRun) execTurn(prompt string) error {
	if r.a.json {
		writeJSONLine(r.inv.stdout, map[string]any{"type": "thread.started", "thread_id": r.id})
		writeJSONLine(r.inv.stdout, map[string]any{"type": "turn.started"})
	} else {
		fmt.Fprintf(r.inv.stderr, "OpenAI Codex v%s (research preview)\n--------\nworkdir: %s\nmodel: mock-model\nprovider: mock\nsession id: %s\n--------\nuser\n%s\n", CodexVersion, r.inv.cwd, r.id, prompt)
	}
	t := r.turn(prompt)
	if err := r.w.close(); err != nil {
		return err
	}
	if !r.a.json {
		fmt.Fprintln(r.inv.stdout, t.reply)
		return nil
	}
	if t.tool {
		writeJSONLine(r.inv.stdout, map[string]any{"type": "item.completed", "item": map[string]any{"id": "item_0", "type": "command_execution", "command": "echo hello", "aggregated_output": "hello\n", "exit_code": 0, "status": "completed"}})
	}
	writeJSONLine(r.inv.stdout, map[string]any{"type": "item.completed", "item": map[string]any{"id": "item_1", "type": "agent_message", "text": t.reply}})
	writeJSONLine(r.inv.stdout, map[string]any{"type": "turn.completed", "usage": map[string]any{"input_tokens": 12, "cached_input_tokens": 0, "output_tokens": 6}})
	return nil
}
