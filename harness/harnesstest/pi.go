package harnesstest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// PiVersion is the Pi release the fake imitates by default; FAKE_PI_VERSION
// picks another (0.73.1 has no --session-id and stores no system prompt).
const PiVersion = "1.6.0"

// FakePiMain runs the fake Pi CLI on the process's argv and stdio and
// returns its exit code.
func FakePiMain() int {
	inv, err := osInvocation()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake pi:", err)
		return 1
	}
	return runPi(inv)
}

// piExit is an error with the exit code the real CLI would use.
type piExit struct {
	code int
	msg  string
}

func (e piExit) Error() string { return e.msg }

// piArgs is the parsed command line of the fake Pi.
type piArgs struct {
	print, help, version, cont, resume, noSession bool
	utility                                       string
	session, sessionID, fork, sessionDir          string
	appends                                       []string
	messages                                      []string
}

// Options of Pi 1.6.0 (pi --help) that take a value; 0.73.1 lacks
// --session-id.
var piValue = map[string]bool{"--provider": true, "--model": true, "--api-key": true, "--system-prompt": true,
	"--append-system-prompt": true, "--mode": true, "--session": true, "--session-id": true, "--fork": true,
	"--session-dir": true, "--name": true, "-n": true, "--models": true, "--tools": true, "-t": true,
	"--exclude-tools": true, "-xt": true, "--thinking": true, "--extension": true, "-e": true, "--skill": true,
	"--prompt-template": true, "--theme": true, "--use-theme": true, "--tui-mode": true, "--export": true}

var piBool = map[string]bool{"--print": true, "-p": true, "--continue": true, "-c": true, "--resume": true, "-r": true,
	"--no-session": true, "--no-tools": true, "-nt": true, "--no-extensions": true, "-ne": true, "--verbose": true,
	"--offline": true, "--approve": true, "-a": true, "--no-approve": true, "-na": true, "--help": true, "-h": true,
	"--version": true, "-v": true, "--no-context-files": true, "-nc": true, "--list-models": true}

var piSubcommands = map[string]bool{"install": true, "remove": true, "uninstall": true, "update": true,
	"list": true, "config": true, "auth": true, "mcp": true}

// parsePiArgs parses argv like Pi's own loop: options anywhere, the first
// positional may be a subcommand, "--" ends options.
func parsePiArgs(args []string, old bool) (piArgs, error) {
	var a piArgs
	for i := 0; i < len(args); i++ {
		arg := args[i]
		name, value, hasValue := strings.Cut(arg, "=")
		switch {
		case arg == "--":
			a.messages = append(a.messages, args[i+1:]...)
			return a, nil
		case !strings.HasPrefix(arg, "-"):
			if len(a.messages) == 0 && a.utility == "" && piSubcommands[arg] {
				a.utility = arg
				return a, nil
			}
			a.messages = append(a.messages, arg)
		case old && name == "--session-id":
			return a, piExit{1, "Error: Unknown option: --session-id"}
		case piValue[name]:
			if !hasValue {
				if i+1 >= len(args) {
					return a, piExit{1, fmt.Sprintf("Error: %s requires a value", name)}
				}
				i++
				value = args[i]
			}
			a.value(name, value)
		case piBool[name]:
			a.flag(name)
		default:
			return a, piExit{1, "Error: Unknown option: " + name}
		}
	}
	return a, nil
}

func (a *piArgs) value(name, v string) {
	switch name {
	case "--session":
		a.session = v
	case "--session-id":
		a.sessionID = v
	case "--fork":
		a.fork = v
	case "--session-dir":
		a.sessionDir = v
	case "--append-system-prompt":
		a.appends = append(a.appends, v)
	case "--mode":
		a.print = a.print || v == "json" || v == "rpc"
	}
}

func (a *piArgs) flag(name string) {
	switch name {
	case "--print", "-p":
		a.print = true
	case "--continue", "-c":
		a.cont = true
	case "--resume", "-r":
		a.resume = true
	case "--no-session", "--list-models":
		a.noSession = true
	case "--help", "-h":
		a.help = true
	case "--version", "-v":
		a.version = true
	}
}

func runPi(inv invocation) int {
	k, err := readKnobs(inv.getenv)
	if err != nil {
		fmt.Fprintln(inv.stderr, "fake pi:", err)
		return 2
	}
	entry := logEntry{Harness: "pi"}
	code := piMain(inv, k, &entry)
	entry.MCP = piMCP(inv.args)
	if err := writeLog(inv, k, entry); err != nil {
		fmt.Fprintln(inv.stderr, "fake pi:", err)
		return 1
	}
	return finish(inv, k, code)
}

// piVersionOf is the imitated version and whether it predates 0.76.0.
func piVersionOf(getenv func(string) string) (string, bool) {
	v := getenv("FAKE_PI_VERSION")
	if v == "" {
		v = PiVersion
	}
	parts := strings.SplitN(v, ".", 3)
	major, _ := strconv.Atoi(parts[0])
	minor := 0
	if len(parts) > 1 {
		minor, _ = strconv.Atoi(parts[1])
	}
	return v, major == 0 && minor < 76
}

func piMain(inv invocation, k knobs, entry *logEntry) int {
	version, old := piVersionOf(inv.getenv)
	a, err := parsePiArgs(inv.args, old)
	switch {
	case err != nil:
		return reportPi(inv, err)
	case a.version:
		fmt.Fprintln(inv.stdout, version)
		return 0
	case a.help:
		fmt.Fprintln(inv.stdout, "pi - AI coding assistant with read, bash, edit, write tools\n\nUsage:\n  pi [options] [--] [@files...] [messages...]")
		return 0
	case a.utility != "":
		fmt.Fprintf(inv.stdout, "pi %s: nothing to do in the fake\n", a.utility)
		return 0
	}
	r := &piRun{inv: inv, k: k, a: a, old: old}
	err = r.run()
	entry.Context, entry.SessionID = r.context, r.id
	return reportPi(inv, err)
}

func reportPi(inv invocation, err error) int {
	var pe piExit
	switch {
	case err == nil:
		return 0
	case errors.As(err, &pe):
		if pe.msg != "" {
			fmt.Fprintln(inv.stderr, pe.msg)
		}
		return pe.code
	}
	fmt.Fprintln(inv.stderr, "Error:", err)
	return 1
}

// appendedPrompt is the --append-system-prompt text: each value is a file's
// content when it names a readable file, else the text itself.
func (r *piRun) appendedPrompt() string {
	var parts []string
	for _, v := range r.a.appends {
		if data, err := os.ReadFile(v); err == nil {
			v = string(data)
		}
		parts = append(parts, v)
	}
	return strings.Join(parts, "\n\n")
}

// printPrompt is the print-mode prompt: the messages, else piped stdin.
func (r *piRun) printPrompt() (string, error) {
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
