package harnesstest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// CopilotVersion is the GitHub Copilot CLI release the fake imitates.
const CopilotVersion = "1.0.102"

// FakeCopilotMain runs the fake Copilot CLI on the process's argv and stdio
// and returns its exit code.
func FakeCopilotMain() int {
	inv, err := osInvocation()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake copilot:", err)
		return 1
	}
	return runCopilot(inv)
}

// copilotFake is the fakes-list entry. --yolo is Copilot's own alias of
// --allow-all, but the wrapper owns that token, so YOLO is --allow-all.
var copilotFake = Fake{Harness: "copilot", Main: FakeCopilotMain, Print: "-p", run: runCopilot, Vars: map[string]string{
	"YOLO": "--allow-all", "SELECT": "--continue",
	"VERSION_OUT": "GitHub Copilot CLI", "UTIL": "mcp", "UTIL_ARG": "list",
	"STORE": ".copilot/session-state", "TRANSCRIPTS": ".copilot/session-state/*/events.jsonl",
	"FRESH_RE":       `"argv":\["-p","[^"]*","--session-id","` + uuidRE + `"`,
	"RESUME_RE":      `"argv":\["-p","[^"]*","--resume=` + uuidRE + `"`,
	"BARE_RESUME_RE": `"argv":\["--resume=` + uuidRE + `"\]`,
}}

// copilotExit is an error with the exit code the real CLI would use.
type copilotExit struct {
	code int
	msg  string
}

func (e copilotExit) Error() string { return e.msg }

// copilotArgs is the parsed command line of the fake Copilot.
type copilotArgs struct {
	prompt, interactive, sessionID, resume string
	hasPrompt, hasResume, cont, allowAll   bool
	help, version                          bool
	utility                                string
	mcpConfigs, allowTools                 []string
}

var (
	copilotFakeValue = map[string]bool{"-p": true, "--prompt": true, "-i": true, "--interactive": true,
		"--model": true, "--session-id": true, "-n": true, "--name": true, "--agent": true, "-C": true,
		"--output-format": true, "--log-level": true, "--add-dir": true, "--plugin-dir": true,
		"--additional-mcp-config": true, "--mode": true, "--reasoning-effort": true,
		"--allow-tool": true, "--deny-tool": true}
	copilotFakeBool = map[string]bool{"--continue": true, "--allow-all": true, "--yolo": true,
		"--allow-all-tools": true, "--allow-all-paths": true, "--allow-all-urls": true, "-s": true,
		"--silent": true, "-h": true, "--help": true, "-v": true, "--version": true,
		"--no-custom-instructions": true, "--no-auto-update": true, "--banner": true}
	copilotFakeUtilities = map[string]bool{"app": true, "login": true, "help": true, "init": true,
		"config": true, "update": true, "version": true, "workflow": true, "sessions": true,
		"memories": true, "plugin": true, "mcp": true, "skill": true, "instruction": true,
		"lsp": true, "sandbox": true, "completion": true}
)

// parseCopilotArgs parses argv like Copilot's clap definition: -r/--resume
// takes an optional value (the next word unless it is an option), the
// first positional is a subcommand, anything else is an error (exit 2).
func parseCopilotArgs(args []string) (copilotArgs, error) {
	var a copilotArgs
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(args[i], "=")
		switch {
		case !strings.HasPrefix(args[i], "-"):
			if copilotFakeUtilities[args[i]] {
				a.utility = args[i]
				return a, nil
			}
			return a, copilotExit{2, fmt.Sprintf("error: unexpected argument '%s' found", args[i])}
		case name == "-r" || name == "--resume":
			a.hasResume = true
			if !hasValue && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				value = args[i]
			}
			a.resume = value
		case copilotFakeValue[name]:
			if !hasValue {
				if i+1 >= len(args) {
					return a, copilotExit{2, fmt.Sprintf("error: a value is required for '%s <value>' but none was supplied", name)}
				}
				i++
				value = args[i]
			}
			a.value(name, value)
		case copilotFakeBool[name]:
			a.flag(name)
		default:
			return a, copilotExit{2, fmt.Sprintf("error: unexpected argument '%s' found", name)}
		}
	}
	return a, nil
}

func (a *copilotArgs) value(name, v string) {
	switch name {
	case "-p", "--prompt":
		a.prompt, a.hasPrompt = v, true
	case "-i", "--interactive":
		a.interactive = v
	case "--session-id":
		a.sessionID = v
	case "--additional-mcp-config":
		a.mcpConfigs = append(a.mcpConfigs, v)
	case "--allow-tool":
		a.allowTools = append(a.allowTools, v)
	}
}

func (a *copilotArgs) flag(name string) {
	switch name {
	case "--continue":
		a.cont = true
	case "--allow-all", "--yolo", "--allow-all-tools":
		a.allowAll = true
	case "-h", "--help":
		a.help = true
	case "-v", "--version":
		a.version = true
	}
}

func runCopilot(inv invocation) int {
	k, err := readKnobs(inv.getenv)
	if err != nil {
		fmt.Fprintln(inv.stderr, "fake copilot:", err)
		return 2
	}
	entry := logEntry{Harness: "copilot"}
	code := copilotMain(inv, k, &entry)
	if err := writeLog(inv, k, entry); err != nil {
		fmt.Fprintln(inv.stderr, "fake copilot:", err)
		return 1
	}
	return finish(inv, k, code)
}

func copilotMain(inv invocation, k knobs, entry *logEntry) int {
	a, err := parseCopilotArgs(inv.args)
	switch {
	case err != nil:
		return reportCopilot(inv, err)
	case a.version:
		fmt.Fprintf(inv.stdout, "GitHub Copilot CLI %s.\n", CopilotVersion)
		return 0
	case a.help:
		fmt.Fprintln(inv.stdout, "Usage: copilot [OPTIONS] [COMMAND]\n\nGitHub Copilot CLI - An AI-powered coding assistant.")
		return 0
	case a.utility != "":
		fmt.Fprintf(inv.stdout, "copilot %s: nothing to do in the fake\n", a.utility)
		return 0
	}
	entry.MCP = copilotMCP(a.mcpConfigs)
	r := &copilotRun{inv: inv, k: k, a: a}
	err = r.run()
	entry.Context, entry.SessionID = r.context, r.id
	return reportCopilot(inv, err)
}

func reportCopilot(inv invocation, err error) int {
	var ce copilotExit
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ce):
		if ce.msg != "" {
			fmt.Fprintln(inv.stderr, ce.msg)
		}
		return ce.code
	}
	fmt.Fprintln(inv.stderr, "Error:", err)
	return 1
}

// printPrompt is the -p text, else piped stdin.
func (r *copilotRun) printPrompt() (string, bool, error) {
	if r.a.hasPrompt {
		return r.a.prompt, true, nil
	}
	if r.inv.stdinTTY {
		return "", false, nil
	}
	data, err := io.ReadAll(r.inv.stdin)
	if err != nil {
		return "", false, fmt.Errorf("read stdin: %w", err)
	}
	if p := strings.TrimSpace(string(data)); p != "" {
		return p, true, nil
	}
	return "", false, copilotExit{1, "Error: no prompt provided: use -p, -i, or pipe a prompt on stdin"}
}
