package harnesstest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/google/uuid"
)

// KiroVersion is the kiro-cli release whose flags and v2 store the fake
// follows (kiro.dev docs and the anchor's verified adapter; kiro-cli
// installs only from its own script).
const KiroVersion = "2.16.2"

// FakeKiroMain runs the fake kiro-cli on the process's argv and stdio and
// returns its exit code.
func FakeKiroMain() int {
	inv, err := osInvocation()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake kiro-cli:", err)
		return 1
	}
	return runKiro(inv)
}

func runKiro(inv invocation) int {
	k, err := readKnobs(inv.getenv)
	if err != nil {
		fmt.Fprintln(inv.stderr, "fake kiro-cli:", err)
		return 2
	}
	entry := logEntry{Harness: "kiro"}
	code := kiroMain(inv, k, &entry)
	if err := writeLog(inv, k, entry); err != nil {
		fmt.Fprintln(inv.stderr, "fake kiro-cli:", err)
		return 1
	}
	return finish(inv, k, code)
}

// kiroArgs is the parsed command line (clap; `kiro-cli` = `kiro-cli chat`).
type kiroArgs struct {
	utility, help, version, list  bool
	noInteractive, trust, v3, res bool
	resumeID, prompt, sub         string
}

func parseKiroArgs(args []string) (kiroArgs, error) {
	var a kiroArgs
	var words []string
	for i := 0; i < len(args); i++ {
		switch arg := args[i]; arg {
		case "-h", "--help", "--help-all":
			a.help = true
		case "-V", "--version":
			a.version = true
		case "-l", "--list-sessions":
			a.list = true
		case "--no-interactive":
			a.noInteractive = true
		case "--trust-all-tools", "-a":
			a.trust = true
		case "--v3":
			a.v3 = true
		case "-r", "--resume", "--resume-picker":
			a.res = true
		case "-v", "--verbose", "-vv":
		case "--resume-id", "--agent", "--model", "--trust-tools":
			if i+1 >= len(args) {
				return a, fmt.Errorf("a value is required for '%s <VALUE>' but none was supplied", arg)
			}
			i++
			if arg == "--resume-id" {
				a.resumeID = args[i]
			}
		default:
			if strings.HasPrefix(arg, "-") {
				return a, fmt.Errorf("unexpected argument '%s' found", arg)
			}
			if len(words) == 0 && a.sub == "" {
				if arg == "chat" {
					a.sub = arg
					continue
				}
				if arg == "mcp" || arg == "settings" || arg == "login" || arg == "whoami" || arg == "doctor" {
					a.sub, a.utility = arg, true
					return a, nil
				}
			}
			words = append(words, arg)
		}
	}
	a.prompt = strings.Join(words, " ")
	return a, nil
}

func kiroMain(inv invocation, k knobs, entry *logEntry) int {
	a, err := parseKiroArgs(inv.args)
	switch {
	case err != nil:
		fmt.Fprintln(inv.stderr, "error:", err)
		return 2
	case a.version:
		fmt.Fprintln(inv.stdout, "kiro-cli "+KiroVersion)
		return 0
	case a.help || a.list || a.utility:
		fmt.Fprintln(inv.stdout, "kiro-cli: nothing to do in the fake")
		return 0
	}
	id, err := kiroRun(inv, k, a)
	entry.SessionID = id
	if err != nil {
		fmt.Fprintln(inv.stderr, "error:", err)
		return 1
	}
	return 0
}

// kiroStore is the v2 store directory: $KIRO_HOME/sessions/cli.
func kiroStore(inv invocation) string {
	home := inv.getenv("KIRO_HOME")
	if home == "" {
		home = filepath.Join(inv.getenv("HOME"), ".kiro")
	}
	return filepath.Join(home, "sessions", "cli")
}

// kiroRun selects the session (--resume-id must exist; --resume takes the
// newest of the cwd, or starts one) and runs the turns.
func kiroRun(inv invocation, k knobs, a kiroArgs) (string, error) {
	if a.v3 {
		return "", errors.New("the fake kiro-cli only writes the v2 engine's store")
	}
	if !a.noInteractive && !inv.stdinTTY {
		return "", errors.New("kiro-cli chat needs a terminal; use --no-interactive")
	}
	if a.noInteractive && strings.TrimSpace(a.prompt) == "" {
		return "", errors.New("--no-interactive needs a prompt")
	}
	dir := kiroStore(inv)
	id := a.resumeID
	switch {
	case id != "":
		if _, err := os.Stat(filepath.Join(dir, id+".jsonl")); err != nil {
			return "", fmt.Errorf("no session with id %s", id)
		}
	case a.res:
		id = newestKiroSession(dir, inv.cwd)
	}
	if id == "" {
		id = uuid.NewString()
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", fmt.Errorf("create session dir: %w", err)
		}
		meta, _ := json.Marshal(map[string]any{"session_id": id, "cwd": inv.cwd, "created_at": inv.now().UTC()})
		if err := os.WriteFile(filepath.Join(dir, id+".json"), meta, 0o600); err != nil {
			return "", err
		}
	}
	w, err := openJSONL(filepath.Join(dir, id+".jsonl"), inv, k)
	if err != nil {
		return id, err
	}
	turn := func(p string) string { kiroTurn(w, p, inv.now().Unix()); return replyFor(p, toolOutputFor(p)) }
	if a.noInteractive {
		fmt.Fprintln(inv.stdout, turn(a.prompt))
	} else if err := promptLoop(inv, []string{"/quit", "/exit", "/q"}, func(p string) (string, error) { return turn(p), w.err }); err != nil {
		w.close()
		return id, err
	}
	return id, w.close()
}

func newestKiroSession(dir, cwd string) string {
	m, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	sort.Slice(m, func(i, j int) bool {
		fi, _ := os.Stat(m[i])
		fj, _ := os.Stat(m[j])
		return fi != nil && fj != nil && fi.ModTime().After(fj.ModTime())
	})
	for _, p := range m {
		var meta struct {
			ID  string `json:"session_id"`
			Cwd string `json:"cwd"`
		}
		if b, err := os.ReadFile(p); err == nil && json.Unmarshal(b, &meta) == nil && meta.Cwd == cwd {
			return meta.ID
		}
	}
	return ""
}

// kiroTurn appends one exchange as v2 envelopes.
func kiroTurn(w *jsonlWriter, prompt string, now int64) {
	env := func(kind string, content ...any) {
		w.write(map[string]any{"version": "v1", "kind": kind, "data": map[string]any{
			"message_id": uuid.NewString(), "content": content, "meta": map[string]any{"timestamp": now}}})
	}
	env("Prompt", map[string]any{"kind": "text", "data": prompt})
	out := toolOutputFor(prompt)
	if out != "" {
		call := "tooluse_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:16]
		env("AssistantMessage", map[string]any{"kind": "toolUse", "data": map[string]any{
			"toolUseId": call, "name": "execute_bash", "input": map[string]any{"command": "echo hello"}}})
		env("ToolResults", map[string]any{"kind": "toolResult", "data": map[string]any{
			"toolUseId": call, "status": "success", "content": []any{map[string]any{"kind": "text", "data": out}}}})
	}
	env("AssistantMessage", map[string]any{"kind": "text", "data": replyFor(prompt, out)})
}

// kiroFake is the fakes-list entry; the CLI is kiro-cli on PATH.
var kiroFake = Fake{Harness: "kiro", Executable: "kiro-cli", Main: FakeKiroMain, Print: "--no-interactive", run: runKiro,
	Vars: map[string]string{
		"YOLO": "--trust-all-tools", "SELECT": "--resume", "DELIVERY": "none",
		"VERSION_OUT": "kiro-cli " + KiroVersion, "UTIL": "mcp", "UTIL_ARG": "list",
		"STORE": ".kiro/sessions", "TRANSCRIPTS": ".kiro/sessions/cli/*.jsonl",
		"FRESH_RE":       `"argv":\["--no-interactive","[^"]*"\]`,
		"RESUME_RE":      `"argv":\["--no-interactive","[^"]*","--resume-id","` + uuidRE + `"\]`,
		"BARE_RESUME_RE": `"argv":\["--resume-id","` + uuidRE + `"\]`,
	}}
