package harnesstest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// GeminiVersion is the Gemini CLI release whose flags, store and records
// the fake follows.
const GeminiVersion = "0.61.0"

// geminiFatalInput is Gemini's exit code for a session it cannot start
// (ExitCodes.FATAL_INPUT_ERROR).
const geminiFatalInput = 42

// FakeGeminiMain runs the fake Gemini CLI on the process's argv and stdio
// and returns its exit code.
func FakeGeminiMain() int {
	inv, err := osInvocation()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake gemini:", err)
		return 1
	}
	return runGemini(inv)
}

// geminiFake is the shared table's entry for Gemini CLI. Its yolo flag is
// the short -y: the long --yolo is also the wrapper's own token.
var geminiFake = Fake{Harness: "gemini", Main: FakeGeminiMain, Print: "-p", run: runGemini, Vars: map[string]string{
	"YOLO": "-y", "SELECT": "--resume",
	"VERSION_OUT": GeminiVersion, "UTIL": "mcp", "UTIL_ARG": "list",
	"STORE": ".gemini/tmp", "TRANSCRIPTS": ".gemini/tmp/*/chats/session-*.jsonl",
	"FRESH_RE":       `"argv":\["-p","[^"]*","--session-id","` + uuidRE + `"`,
	"RESUME_RE":      `"argv":\["-p","[^"]*","--resume","` + uuidRE + `"`,
	"BARE_RESUME_RE": `"argv":\["--resume","` + uuidRE + `"\]`,
}}

func runGemini(inv invocation) int {
	k, err := readKnobs(inv.getenv)
	if err != nil {
		fmt.Fprintln(inv.stderr, "fake gemini:", err)
		return 2
	}
	entry := logEntry{Harness: "gemini"}
	a, perr := parseGeminiArgs(inv.args)
	code := geminiMain(inv, k, a, perr, &entry)
	// A dry start (the launcher asking for the system prompt) is not a run
	// the scenarios count.
	if !a.dry {
		if err := writeLog(inv, k, entry); err != nil {
			fmt.Fprintln(inv.stderr, "fake gemini:", err)
			return 1
		}
	}
	return finish(inv, k, code)
}

func geminiMain(inv invocation, k knobs, a geminiArgs, err error, entry *logEntry) int {
	switch {
	case err != nil:
		fmt.Fprintln(inv.stderr, err)
		return 1
	case a.version:
		fmt.Fprintln(inv.stdout, GeminiVersion)
		return 0
	case a.help:
		fmt.Fprintln(inv.stdout, "Usage: gemini [options] [command]\n\nGemini CLI - Defaults to interactive mode. Use -p/--prompt for non-interactive (headless) mode.")
		return 0
	case a.utility != "":
		fmt.Fprintf(inv.stdout, "gemini %s: nothing to do in the fake\n", a.utility)
		return 0
	}
	r := &geminiRun{inv: inv, k: k, a: a}
	err = r.run()
	entry.Context, entry.SessionID = r.context, r.id
	var ge geminiExit
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ge):
		fmt.Fprintln(inv.stderr, ge.msg)
		return ge.code
	}
	fmt.Fprintln(inv.stderr, "Error:", err)
	return 1
}

// geminiExit is an error with the exit code the real CLI would use.
type geminiExit struct {
	code int
	msg  string
}

func (e geminiExit) Error() string { return e.msg }

// geminiArgs is the parsed command line of the fake Gemini.
type geminiArgs struct {
	prompt, promptInteractive   string
	hasPrompt, hasInteractive   bool
	resume, sessionID, approval string
	hasResume, yolo, dry        bool
	help, version               bool
	utility                     string
	query                       []string
}

var (
	geminiFakeValue = map[string]bool{"-m": true, "--model": true, "-p": true, "--prompt": true,
		"-i": true, "--prompt-interactive": true, "--approval-mode": true, "--policy": true,
		"--admin-policy": true, "--allowed-mcp-server-names": true, "--allowed-tools": true, "-e": true,
		"--extensions": true, "--session-file": true, "--session-id": true, "--delete-session": true,
		"--include-directories": true, "-o": true, "--output-format": true, "--fake-responses": true,
		"--fake-responses-non-strict": true, "--record-responses": true}
	geminiFakeBool = map[string]bool{"-d": true, "--debug": true, "-s": true, "--sandbox": true,
		"-y": true, "--yolo": true, "--skip-trust": true, "--screen-reader": true, "--raw-output": true,
		"--accept-raw-output-risk": true, "-v": true, "--version": true, "-h": true, "--help": true,
		"-l": true, "--list-extensions": true, "--list-sessions": true, "--acp": true, "--experimental-acp": true}
	geminiFakeUtilities = map[string]bool{"mcp": true, "extensions": true, "extension": true,
		"skills": true, "skill": true, "hooks": true, "hook": true, "gemma": true}
)

// parseGeminiArgs parses argv like Gemini's yargs setup: options anywhere,
// the first word may be a subcommand, -r/--resume takes an optional value.
func parseGeminiArgs(args []string) (geminiArgs, error) {
	var a geminiArgs
	for i := 0; i < len(args); i++ {
		arg := args[i]
		name, value, has := strings.Cut(arg, "=")
		switch {
		case arg == "--":
			a.query = append(a.query, args[i+1:]...)
			i = len(args)
		case !strings.HasPrefix(arg, "-"):
			if len(a.query) == 0 && geminiFakeUtilities[arg] {
				a.utility = arg
				return a, nil
			}
			a.query = append(a.query, arg)
		case name == "-r" || name == "--resume":
			a.hasResume = true
			if !has && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				value = args[i]
			}
			a.resume = value
		case geminiFakeValue[name]:
			if !has {
				if i+1 >= len(args) {
					return a, fmt.Errorf("Not enough arguments following: %s", strings.TrimLeft(name, "-"))
				}
				i++
				value = args[i]
			}
			a.value(name, value)
		case geminiFakeBool[name]:
			a.flag(name)
		default:
			return a, fmt.Errorf("Unknown argument: %s", strings.TrimLeft(name, "-"))
		}
	}
	return a, a.check()
}

func (a *geminiArgs) value(name, v string) {
	switch name {
	case "-p", "--prompt":
		a.prompt, a.hasPrompt = v, true
	case "-i", "--prompt-interactive":
		a.promptInteractive, a.hasInteractive = v, true
	case "--session-id":
		a.sessionID = v
	case "--approval-mode":
		a.approval = v
	case "--fake-responses", "--fake-responses-non-strict":
		a.dry = true
	}
}

func (a *geminiArgs) flag(name string) {
	switch name {
	case "-y", "--yolo":
		a.yolo = true
	case "-h", "--help":
		a.help = true
	case "-v", "--version":
		a.version = true
	case "-l", "--list-extensions", "--list-sessions", "--acp", "--experimental-acp":
		a.utility = name
	}
}

// check applies Gemini's own argument checks (config.ts).
func (a geminiArgs) check() error {
	n := 0
	for _, set := range []bool{a.hasResume, a.sessionID != ""} {
		if set {
			n++
		}
	}
	switch {
	case n > 1:
		return errors.New("The flags --resume, --session-id, and --session-file are mutually exclusive. Please provide only one.")
	case a.hasPrompt && len(a.query) > 0:
		return errors.New("Cannot use both a positional prompt and the --prompt (-p) flag together")
	case a.yolo && a.approval != "":
		return errors.New("Cannot use both --yolo (-y) and --approval-mode together. Use --approval-mode=yolo instead.")
	}
	return nil
}

// stdinPrompt reads piped stdin (appended to -p, or the whole prompt).
func stdinPrompt(inv invocation) string {
	if inv.stdinTTY {
		return ""
	}
	data, _ := io.ReadAll(inv.stdin)
	return strings.TrimSpace(string(data))
}
