package harnesstest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// CommandCodeVersion is the Command Code release the fake imitates.
const CommandCodeVersion = "1.64.0"

// FakeCommandCodeMain runs the fake Command Code CLI on the process's argv
// and stdio and returns its exit code.
func FakeCommandCodeMain() int {
	inv, err := osInvocation()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake command-code:", err)
		return 1
	}
	return runCommandCode(inv)
}

// commandcodeFake is the fakes-list entry. A fresh session gets no id
// (Command Code makes it); a packet, when owed, follows as --mod.
var commandcodeFake = Fake{Harness: "command-code", Main: FakeCommandCodeMain, Print: "-p", run: runCommandCode, Vars: map[string]string{
	"YOLO": "--dangerously-skip-permissions", "SELECT": "--continue",
	"VERSION_OUT": CommandCodeVersion, "UTIL": "mcp", "UTIL_ARG": "list",
	"STORE": ".commandcode/projects", "TRANSCRIPTS": ".commandcode/projects/*/*.jsonl",
	"FRESH_RE":       `"argv":\["-p","[^"]*"(,"--mod","[^"]*")?\]`,
	"RESUME_RE":      `"argv":\["-p","[^"]*","--session","` + uuidRE + `"`,
	"BARE_RESUME_RE": `"argv":\["--session","` + uuidRE + `"\]`,
}}

// ccExit is an error with the exit code the real CLI would use.
type ccExit struct {
	code int
	msg  string
}

func (e ccExit) Error() string { return e.msg }

type ccArgs struct {
	prompt, session, resume      string
	print, hasResume, cont, yolo bool
	help, version                bool
	utility                      string
	mods                         []string
	messages                     []string
}

var (
	ccFakeValue = map[string]bool{"--session": true, "-n": true, "--name": true, "--max-turns": true,
		"--output-format": true, "-m": true, "--model": true, "--effort": true, "--theme": true, "--config": true,
		"--permission-mode": true, "--add-dir": true, "--mod": true, "--mod-option": true, "--skill": true}
	ccFakeBool = map[string]bool{"-c": true, "--continue": true, "--fork-session": true, "-t": true, "--trust": true,
		"--yolo": true, "--dangerously-skip-permissions": true, "--local-only": true, "--plan": true,
		"--accept-edits": true, "-h": true, "--help": true, "-v": true, "--version": true, "--skip-onboarding": true}
	ccFakeUtilities = map[string]bool{"info": true, "status": true, "help": true, "whoami": true, "update": true,
		"feedback": true, "issue": true, "taste": true, "learn-taste": true, "mcp": true, "skills": true,
		"mods": true, "login": true, "logout": true}
)

// parseCCArgs parses argv like Command Code's commander program:
// -p/--print and -r/--resume take an optional value.
func parseCCArgs(args []string) (ccArgs, error) {
	var a ccArgs
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(args[i], "=")
		optional := func() string {
			if !hasValue && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				return args[i]
			}
			return value
		}
		switch {
		case !strings.HasPrefix(args[i], "-"):
			if len(a.messages) == 0 && ccFakeUtilities[args[i]] {
				a.utility = args[i]
				return a, nil
			}
			a.messages = append(a.messages, args[i])
		case name == "-p" || name == "--print":
			a.print, a.prompt = true, optional()
		case name == "-r" || name == "--resume":
			a.hasResume, a.resume = true, optional()
		case ccFakeValue[name]:
			if !hasValue {
				if i+1 >= len(args) {
					return a, ccExit{1, fmt.Sprintf("error: option '%s <value>' argument missing", name)}
				}
				i++
				value = args[i]
			}
			a.value(name, value)
		case ccFakeBool[name]:
			a.flag(name)
		default:
			return a, ccExit{1, fmt.Sprintf("error: unknown option '%s'", name)}
		}
	}
	return a, nil
}

func (a *ccArgs) value(name, v string) {
	switch name {
	case "--session":
		a.session = v
	case "--mod":
		a.mods = append(a.mods, v)
	}
}

func (a *ccArgs) flag(name string) {
	switch name {
	case "-c", "--continue":
		a.cont = true
	case "--yolo", "--dangerously-skip-permissions":
		a.yolo = true
	case "-h", "--help":
		a.help = true
	case "-v", "--version":
		a.version = true
	}
}

func runCommandCode(inv invocation) int {
	k, err := readKnobs(inv.getenv)
	if err != nil {
		fmt.Fprintln(inv.stderr, "fake command-code:", err)
		return 2
	}
	entry := logEntry{Harness: "command-code"}
	code := ccMain(inv, k, &entry)
	if err := writeLog(inv, k, entry); err != nil {
		fmt.Fprintln(inv.stderr, "fake command-code:", err)
		return 1
	}
	return finish(inv, k, code)
}

func ccMain(inv invocation, k knobs, entry *logEntry) int {
	a, err := parseCCArgs(inv.args)
	switch {
	case err != nil:
		return reportCC(inv, err)
	case a.version:
		fmt.Fprintln(inv.stdout, CommandCodeVersion)
		return 0
	case a.help:
		fmt.Fprintln(inv.stdout, "Command Code v"+CommandCodeVersion+"\n\nUsage\n  cmd <command> [options]")
		return 0
	case a.utility != "":
		fmt.Fprintf(inv.stdout, "cmd %s: nothing to do in the fake\n", a.utility)
		return 0
	}
	r := &ccRun{inv: inv, k: k, a: a}
	err = r.run()
	entry.Context, entry.SessionID = r.context, r.id
	return reportCC(inv, err)
}

func reportCC(inv invocation, err error) int {
	var ce ccExit
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

var ccModPromptRE = regexp.MustCompile(`appendSystemPrompt:\s*\(\)\s*=>\s*("(?:[^"\\]|\\.)*")`)

// modPrompts is what the mods' appendSystemPrompt hooks return.
func (r *ccRun) modPrompts() (string, error) {
	var parts []string
	for _, m := range r.a.mods {
		data, err := os.ReadFile(m)
		if err != nil {
			return "", ccExit{1, fmt.Sprintf("Error: cannot load mod %s", m)}
		}
		if sub := ccModPromptRE.FindSubmatch(data); sub != nil {
			var s string
			if json.Unmarshal(sub[1], &s) == nil {
				parts = append(parts, s)
			}
		}
	}
	return strings.Join(parts, "\n\n"), nil
}
