package harnesstest

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// OmpVersion is the oh-my-pi release the fake imitates.
const OmpVersion = "18.2.3"

// FakeOmpMain runs the fake oh-my-pi CLI on the process's argv and stdio
// and returns its exit code.
func FakeOmpMain() int {
	inv, err := osInvocation()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake omp:", err)
		return 1
	}
	return runOmp(inv)
}

// ompArgs is the parsed command line of the fake OMP.
type ompArgs struct {
	print, help, version, cont, noSession bool
	resumeGiven                           bool
	resume, fork, appendPrompt, command   string
	messages                              []string
}

// Options of OMP 18.2.3 (src/cli/flag-tables.ts, args.ts) that take a
// value, and its boolean flags.
var (
	ompValue = map[string]bool{"--cwd": true, "--config": true, "--add-dir": true, "--mode": true, "--fork": true,
		"--provider": true, "--model": true, "--smol": true, "--slow": true, "--plan": true, "--max-time": true,
		"--api-key": true, "--system-prompt": true, "--append-system-prompt": true, "--provider-session-id": true,
		"--session-dir": true, "--models": true, "--tools": true, "--thinking": true, "--export": true, "--hook": true,
		"--extension": true, "-e": true, "--plugin-dir": true, "--skills": true, "--approval-mode": true,
		"--profile": true, "--alias": true}
	ompBool = map[string]bool{"--help": true, "-h": true, "--version": true, "-v": true, "--continue": true, "-c": true,
		"--from-claude": true, "--from-codex": true, "--no-session": true, "--no-tools": true, "--no-lsp": true,
		"--print": true, "-p": true, "--no-extensions": true, "--no-skills": true, "--no-rules": true, "--no-title": true,
		"--auto-approve": true, "--yolo": true, "--allow-home": true}
	ompSubcommands = map[string]bool{"plugin": true, "config": true, "models": true, "update": true, "setup": true,
		"stats": true, "acp": true, "install": true, "help": true}
)

// parseOmpArgs parses argv like OMP: options anywhere, a first positional
// naming a subcommand runs it, "--" ends options, unknown flags fail.
func parseOmpArgs(args []string) (ompArgs, error) {
	var a ompArgs
	for i := 0; i < len(args); i++ {
		arg := args[i]
		name, value, hasValue := strings.Cut(arg, "=")
		switch {
		case arg == "--":
			a.messages = append(a.messages, args[i+1:]...)
			return a, nil
		case !strings.HasPrefix(arg, "-"):
			if len(a.messages) == 0 && a.command == "" && ompSubcommands[arg] {
				a.command = arg
				return a, nil
			}
			a.messages = append(a.messages, arg)
		case name == "--resume" || name == "-r" || name == "--session":
			a.resumeGiven = true
			if hasValue {
				a.resume = value
			} else if i+1 < len(args) && args[i+1] != "" && !strings.HasPrefix(args[i+1], "-") {
				i++
				a.resume = args[i]
			}
		case ompValue[name]:
			if !hasValue {
				if i+1 >= len(args) {
					return a, piExit{1, "Error: " + name + " requires a value"}
				}
				i++
				value = args[i]
			}
			a.value(name, value)
		case ompBool[name]:
			a.flag(name)
		default:
			return a, piExit{1, "Error: Unknown option: " + name}
		}
	}
	return a, nil
}

func (a *ompArgs) value(name, v string) {
	switch name {
	case "--fork":
		a.fork = v
	case "--append-system-prompt":
		a.appendPrompt = v // the last one wins
	case "--mode":
		a.print = a.print || v == "json" || v == "rpc"
	case "--export":
		a.noSession = true
	}
}

func (a *ompArgs) flag(name string) {
	switch name {
	case "--print", "-p":
		a.print = true
	case "--continue", "-c":
		a.cont = true
	case "--no-session":
		a.noSession = true
	case "--help", "-h":
		a.help = true
	case "--version", "-v":
		a.version = true
	}
}

func runOmp(inv invocation) int {
	k, err := readKnobs(inv.getenv)
	if err != nil {
		fmt.Fprintln(inv.stderr, "fake omp:", err)
		return 2
	}
	entry := logEntry{Harness: "omp"}
	code := ompMain(inv, k, &entry)
	if err := writeLog(inv, k, entry); err != nil {
		fmt.Fprintln(inv.stderr, "fake omp:", err)
		return 1
	}
	return finish(inv, k, code)
}

func ompMain(inv invocation, k knobs, entry *logEntry) int {
	a, err := parseOmpArgs(inv.args)
	switch {
	case err != nil:
		return reportPi(inv, err)
	case a.version:
		fmt.Fprintln(inv.stdout, "omp/"+OmpVersion)
		return 0
	case a.help:
		fmt.Fprintln(inv.stdout, "omp - AI coding agent\n\nUsage:\n  omp [options] [@files...] [messages...]")
		return 0
	case a.command != "":
		fmt.Fprintf(inv.stdout, "omp %s: nothing to do in the fake\n", a.command)
		return 0
	}
	r := &ompRun{inv: inv, k: k, a: a}
	err = r.run()
	entry.Context, entry.SessionID = r.context, r.id
	return reportPi(inv, err)
}

// appended is the --append-system-prompt text: a readable file's content,
// else the value itself.
func (r *ompRun) appended() string {
	v := r.a.appendPrompt
	if data, err := os.ReadFile(v); err == nil {
		v = string(data)
	}
	return v
}

// printPrompt is the print-mode prompt: the messages, else piped stdin.
func (r *ompRun) printPrompt() (string, error) {
	if len(r.a.messages) > 0 {
		return strings.Join(r.a.messages, " "), nil
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
	return "", piExit{1, "Error: no prompt provided for print mode"}
}

// OmpAgentDir is OMP's agent directory: $PI_CODING_AGENT_DIR, else
// ~/$PI_CONFIG_DIR/agent (default ~/.omp/agent).
func OmpAgentDir(getenv func(string) string) string {
	if d := getenv("PI_CODING_AGENT_DIR"); d != "" {
		return d
	}
	cfg := getenv("PI_CONFIG_DIR")
	if cfg == "" {
		cfg = ".omp"
	}
	return filepath.Join(getenv("HOME"), cfg, "agent")
}
