package harnesstest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// OpenCodeVersion is the opencode-ai release whose flags and store the fake
// follows.
const OpenCodeVersion = "1.18.33"

// FakeOpenCodeMain runs the fake OpenCode CLI on the process's argv and
// stdio and returns its exit code.
func FakeOpenCodeMain() int {
	inv, err := osInvocation()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake opencode:", err)
		return 1
	}
	return runOpenCode(inv)
}

func runOpenCode(inv invocation) int {
	k, err := readKnobs(inv.getenv)
	if err != nil {
		fmt.Fprintln(inv.stderr, "fake opencode:", err)
		return 2
	}
	entry := logEntry{Harness: "opencode"}
	code := opencodeMain(inv, k, &entry)
	entry.MCP = opencodeMCP(inv.getenv("OPENCODE_CONFIG_CONTENT"))
	if err := writeLog(inv, k, entry); err != nil {
		fmt.Fprintln(inv.stderr, "fake opencode:", err)
		return 1
	}
	return finish(inv, k, code)
}

func opencodeMain(inv invocation, k knobs, entry *logEntry) int {
	a, err := parseOpenCodeArgs(inv.args)
	switch {
	case err != nil:
		fmt.Fprintln(inv.stderr, "Error:", err)
		return 1
	case a.version:
		fmt.Fprintln(inv.stdout, OpenCodeVersion)
		return 0
	case a.help:
		fmt.Fprintln(inv.stdout, "opencode [project]\n\nstart opencode tui\n\nCommands:\n  opencode run [message..]  run opencode with a message")
		return 0
	case a.utility:
		fmt.Fprintf(inv.stdout, "opencode %s: nothing to do in the fake\n", a.sub)
		return 0
	}
	r := &opencodeRun{inv: inv, k: k, a: a}
	err = r.run()
	entry.Context, entry.SessionID = r.context, r.id
	if err != nil {
		fmt.Fprintln(inv.stderr, "Error:", err)
		return 1
	}
	return 0
}

// opencodeRun is one session of the fake.
type opencodeRun struct {
	inv     invocation
	k       knobs
	a       opencodeArgs
	st      *opencodeStore
	id      string
	context string
}

func (r *opencodeRun) run() error {
	print := r.a.sub == "run" && !r.a.interactive
	if !print && !r.inv.stdinTTY {
		return errors.New("the OpenCode TUI needs a terminal")
	}
	if print && strings.TrimSpace(r.a.prompt) == "" {
		return errors.New("You must provide a message or a command")
	}
	ctx, err := opencodeInstructions(r.inv.getenv("OPENCODE_CONFIG_CONTENT"), r.inv.cwd)
	if err != nil {
		return err
	}
	r.context = ctx
	if r.st, err = openOpenCodeStore(r.inv); err != nil {
		return err
	}
	defer r.st.close()
	if r.id, err = r.st.selectSession(r.a, r.inv.cwd); err != nil {
		return err
	}
	if print {
		return r.turn(r.a.prompt)
	}
	if r.a.prompt != "" {
		if err := r.turn(r.a.prompt); err != nil {
			return err
		}
	}
	return promptLoop(r.inv, []string{"/quit", "/exit"}, func(p string) (string, error) {
		return replyFor(p, toolOutputFor(p)), r.turnQuiet(p)
	})
}

// turn runs one turn and prints it as `run` does (json events or the reply).
func (r *opencodeRun) turn(prompt string) error {
	if err := r.turnQuiet(prompt); err != nil {
		return err
	}
	reply := replyFor(prompt, toolOutputFor(prompt))
	if r.a.json {
		writeJSONLine(r.inv.stdout, map[string]any{"type": "step_start", "sessionID": r.id})
		writeJSONLine(r.inv.stdout, map[string]any{"type": "text", "sessionID": r.id, "part": map[string]any{"type": "text", "text": reply}})
		writeJSONLine(r.inv.stdout, map[string]any{"type": "step_finish", "sessionID": r.id})
		return nil
	}
	fmt.Fprintln(r.inv.stdout, reply)
	return nil
}

func (r *opencodeRun) turnQuiet(prompt string) error {
	return r.st.turn(r.id, r.inv.cwd, prompt, r.k, r.inv)
}

func toolOutputFor(prompt string) string {
	if wantsTool(prompt) {
		return "hello\n"
	}
	return ""
}

// opencodeInstructions reads the instructions files named in
// OPENCODE_CONFIG_CONTENT, as OpenCode puts them in the system prompt of
// every turn, fresh and resumed: what reached the model besides the prompt.
func opencodeInstructions(content, cwd string) (string, error) {
	if strings.TrimSpace(content) == "" {
		return "", nil
	}
	var cfg struct {
		Instructions []string `json:"instructions"`
	}
	if err := json.Unmarshal([]byte(content), &cfg); err != nil {
		return "", fmt.Errorf("OPENCODE_CONFIG_CONTENT: %w", err)
	}
	var out []string
	for _, f := range cfg.Instructions {
		if !filepath.IsAbs(f) {
			f = filepath.Join(cwd, f)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			continue // OpenCode skips instructions it cannot read
		}
		out = append(out, string(data))
	}
	return strings.Join(out, "\n"), nil
}

// opencodeFake is the fakes-list entry. The store is one database (its WAL
// beside it holds recent writes, hence the glob).
var opencodeFake = Fake{Harness: "opencode", Main: FakeOpenCodeMain, Print: "run", run: runOpenCode, Vars: map[string]string{
	"YOLO": "--auto", "SELECT": "--continue",
	"VERSION_OUT": OpenCodeVersion, "UTIL": "session", "UTIL_ARG": "list",
	"STORE": ".local/share/opencode", "TRANSCRIPTS": ".local/share/opencode/opencode.db*",
	"FRESH_RE":       `"argv":\["run","[^"]*"\]`,
	"RESUME_RE":      `"argv":\["run","--session","ses_[0-9a-zA-Z]+","[^"]*"\]`,
	"BARE_RESUME_RE": `"argv":\["--session","ses_[0-9a-zA-Z]+"\]`,
}}
