package harnesstest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// QwenVersion is the Qwen Code release the fake imitates.
const QwenVersion = "0.24.4"

// FakeQwenMain runs the fake Qwen Code CLI on the process's argv and stdio
// and returns its exit code.
func FakeQwenMain() int {
	inv, err := osInvocation()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake qwen:", err)
		return 1
	}
	return runQwen(inv)
}

// qwenExit is an error with the exit code the real CLI would use.
type qwenExit struct {
	code int
	msg  string
}

func (e qwenExit) Error() string { return e.msg }

// qwenArgs is the parsed command line of the fake Qwen.
type qwenArgs struct {
	help, version, cont, yolo, fork bool
	resumeGiven                     bool
	prompt, interactivePrompt       string
	resume, sessionID, approvalMode string
	mcpConfig                       string
	appends                         []string
	query                           []string
	utility                         string
}

// Options of Qwen 0.24.4 (chunks/chunk-BSIOCNDK.js) that take a value, and
// the array options, which take every value up to the next option.
var (
	qwenValue = map[string]bool{"--model": true, "-m": true, "--prompt": true, "-p": true,
		"--prompt-interactive": true, "-i": true, "--system-prompt": true, "--append-system-prompt": true,
		"--output-style": true, "--sandbox-image": true, "--approval-mode": true, "--channel": true,
		"--mcp-config": true, "--openai-logging-dir": true, "--openai-api-key": true, "--openai-base-url": true,
		"--input-format": true, "--output-format": true, "-o": true, "--json-fd": true, "--json-file": true,
		"--json-schema": true, "--input-file": true, "--session-id": true, "--max-session-turns": true,
		"--max-wall-time": true, "--max-tool-calls": true, "--max-subagent-depth": true, "--auth-type": true,
		"--proxy": true}
	qwenArray = map[string]bool{"--fallback-model": true, "--allowed-mcp-server-names": true,
		"--allowed-tools": true, "--extensions": true, "-e": true, "--include-directories": true,
		"--add-dir": true, "--core-tools": true, "--exclude-tools": true, "--disabled-slash-commands": true}
	qwenBool = map[string]bool{"--debug": true, "-d": true, "--bare": true, "--safe-mode": true,
		"--insecure": true, "--chat-recording": true, "--sandbox": true, "-s": true, "--yolo": true, "-y": true,
		"--acp": true, "--experimental-lsp": true, "--list-extensions": true, "-l": true, "--screen-reader": true,
		"--openai-logging": true, "--include-partial-messages": true, "--continue": true, "-c": true,
		"--fork-session": true, "--help": true, "-h": true, "--version": true, "-v": true}
	qwenCommands = map[string]bool{"mcp": true, "extensions": true, "auth": true, "hooks": true, "channel": true,
		"board": true, "review": true, "serve": true, "sessions": true, "update": true, "sandbox": true}
)

// parseQwenArgs parses argv like Qwen's strict yargs: options anywhere, a
// first positional that names a command runs it, "--" ends options.
func parseQwenArgs(args []string) (qwenArgs, error) {
	var a qwenArgs
	for i := 0; i < len(args); i++ {
		arg := args[i]
		name, value, hasValue := strings.Cut(arg, "=")
		switch {
		case arg == "--":
			a.query = append(a.query, args[i+1:]...)
			return a, a.check()
		case !strings.HasPrefix(arg, "-"):
			if len(a.query) == 0 && qwenCommands[arg] {
				a.utility = arg
				return a, nil
			}
			a.query = append(a.query, arg)
		case name == "--resume" || name == "-r":
			a.resumeGiven = true
			if hasValue {
				a.resume = value
			} else if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				a.resume = args[i]
			}
		case qwenArray[name]:
			for !hasValue && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
			}
		case qwenValue[name]:
			if !hasValue {
				if i+1 >= len(args) {
					return a, qwenExit{1, "Not enough arguments following: " + strings.TrimLeft(name, "-")}
				}
				i++
				value = args[i]
			}
			a.value(name, value)
		case qwenBool[name]:
			a.flag(name)
		default:
			return a, qwenExit{1, "Unknown arguments: " + strings.TrimLeft(name, "-")}
		}
	}
	return a, a.check()
}

func (a *qwenArgs) value(name, v string) {
	switch name {
	case "--prompt", "-p":
		a.prompt = v
	case "--prompt-interactive", "-i":
		a.interactivePrompt = v
	case "--session-id":
		a.sessionID = v
	case "--approval-mode":
		a.approvalMode = v
	case "--append-system-prompt":
		a.appends = append(a.appends, v)
	case "--mcp-config":
		a.mcpConfig = v
	}
}

func (a *qwenArgs) flag(name string) {
	switch name {
	case "--yolo", "-y":
		a.yolo = true
	case "--continue", "-c":
		a.cont = true
	case "--fork-session":
		a.fork = true
	case "--help", "-h":
		a.help = true
	case "--version", "-v":
		a.version = true
	}
}

// check applies the conflicts Qwen's yargs check() rejects.
func (a *qwenArgs) check() error {
	switch {
	case a.prompt != "" && len(a.query) > 0:
		return qwenExit{1, "Cannot use both a positional prompt and the --prompt (-p) flag together"}
	case a.yolo && a.approvalMode != "":
		return qwenExit{1, "Cannot use both --yolo (-y) and --approval-mode together. Use --approval-mode=yolo instead."}
	case a.cont && a.resumeGiven:
		return qwenExit{1, "Cannot use both --continue and --resume together."}
	case a.sessionID != "" && (a.cont || a.resumeGiven):
		return qwenExit{1, "Cannot use --session-id with --continue or --resume."}
	case a.sessionID != "" && !uuidRx.MatchString(a.sessionID):
		return qwenExit{1, fmt.Sprintf("Invalid --session-id: %q. Must be a valid UUID", a.sessionID)}
	case len(a.appends) > 1:
		// yargs makes a repeated string option an array, which 0.24.4's
		// system prompt builder cannot join.
		return qwenExit{1, "Error: Failed to initialize chat: part?.trim is not a function"}
	}
	return nil
}

// oneShot is the print-mode prompt ("" for the TUI).
func (a *qwenArgs) oneShot() string {
	if a.interactivePrompt != "" {
		return ""
	}
	if a.prompt != "" {
		return a.prompt
	}
	return strings.Join(a.query, " ")
}

func runQwen(inv invocation) int {
	k, err := readKnobs(inv.getenv)
	if err != nil {
		fmt.Fprintln(inv.stderr, "fake qwen:", err)
		return 2
	}
	entry := logEntry{Harness: "qwen"}
	code := qwenMain(inv, k, &entry)
	if err := writeLog(inv, k, entry); err != nil {
		fmt.Fprintln(inv.stderr, "fake qwen:", err)
		return 1
	}
	return finish(inv, k, code)
}

func qwenMain(inv invocation, k knobs, entry *logEntry) int {
	a, err := parseQwenArgs(inv.args)
	switch {
	case err != nil:
		return reportQwen(inv, err)
	case a.version:
		fmt.Fprintln(inv.stdout, QwenVersion)
		return 0
	case a.help:
		fmt.Fprintln(inv.stdout, "Usage: qwen [options] [command]\n\nQwen Code - Launch an interactive CLI, use -p/--prompt for non-interactive mode")
		return 0
	case a.utility != "":
		fmt.Fprintf(inv.stdout, "qwen %s: nothing to do in the fake\n", a.utility)
		return 0
	}
	entry.MCP = qwenMCP(a.mcpConfig)
	r := &qwenRun{inv: inv, k: k, a: a}
	err = r.run()
	entry.Context, entry.SessionID = r.context, r.id
	return reportQwen(inv, err)
}

func reportQwen(inv invocation, err error) int {
	var qe qwenExit
	switch {
	case err == nil:
		return 0
	case errors.As(err, &qe):
		if qe.msg != "" {
			fmt.Fprintln(inv.stderr, qe.msg)
		}
		return qe.code
	}
	fmt.Fprintln(inv.stderr, "Error:", err)
	return 1
}

// printPrompt is the one-shot prompt, with piped stdin in front of it as
// Qwen does ("Appended to input on stdin").
func (r *qwenRun) printPrompt() (string, error) {
	p := r.a.oneShot()
	if !r.inv.stdinTTY {
		data, err := io.ReadAll(r.inv.stdin)
		if err != nil {
			return "", fmt.Errorf("read stdin: %w", err)
		}
		if s := strings.TrimSpace(string(data)); s != "" {
			p = strings.TrimSpace(s + "\n\n" + p)
		}
	}
	if p == "" {
		return "", qwenExit{1, "No input provided via stdin. Input can be provided by piping data into qwen or using the --prompt option."}
	}
	return p, nil
}
