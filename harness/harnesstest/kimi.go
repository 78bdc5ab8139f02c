package harnesstest

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// KimiVersion is the Kimi Code release the fake imitates.
const KimiVersion = "2.1.0"

// FakeKimiMain runs the fake Kimi Code CLI on the process's argv and stdio
// and returns its exit code.
func FakeKimiMain() int {
	inv, err := osInvocation()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake kimi:", err)
		return 1
	}
	return runKimi(inv)
}

// kimiFake is the fakes-list entry. YOLO is empty: the print mode the
// shared scenarios use refuses Kimi's --yolo/--auto and already runs tools
// unasked, so the wrapper adds nothing there (the TUI gets --auto, see
// harness/kimi_test.go). A fresh session gets no id (Kimi makes it); a
// packet, when owed, follows as --agent-file.
var kimiFake = Fake{Harness: "kimi", Main: FakeKimiMain, Print: "-p", run: runKimi, Vars: map[string]string{
	"YOLO": "", "SELECT": "--continue",
	"VERSION_OUT": KimiVersion, "UTIL": "session", "UTIL_ARG": "list",
	"STORE": ".kimi-code/sessions", "TRANSCRIPTS": ".kimi-code/sessions/*/*/agents/main/wire.jsonl",
	"FRESH_RE":       `"argv":\["-p","[^"]*"(,"--agent-file","[^"]*")?\]`,
	"RESUME_RE":      `"argv":\["-p","[^"]*","-S","session_` + uuidRE + `"\]`,
	"BARE_RESUME_RE": `"argv":\["-S","session_` + uuidRE + `"\]`,
}}

// kimiExit is an error with the exit code the real CLI would use.
type kimiExit struct {
	code int
	msg  string
}

func (e kimiExit) Error() string { return e.msg }

type kimiArgs struct {
	prompt, session, agentFile, agent string
	hasPrompt, hasSession, cont       bool
	yolo, auto, help, version         bool
	utility                           string
}

var (
	kimiFakeValue = map[string]bool{"-p": true, "--prompt": true, "-m": true, "--model": true,
		"--output-format": true, "--skills-dir": true, "--agent": true, "--agent-file": true, "--add-dir": true}
	kimiFakeBool = map[string]bool{"-c": true, "--continue": true, "-y": true, "--yolo": true, "--auto": true,
		"--plan": true, "-h": true, "--help": true, "-V": true, "--version": true}
	kimiFakeUtilities = map[string]bool{"export": true, "fork": true, "provider": true, "session": true,
		"acp": true, "web": true, "server": true, "rc": true, "remote": true, "login": true, "doctor": true,
		"vis": true, "install-desktop": true, "migrate": true, "upgrade": true, "update": true, "help": true}
)

// parseKimiArgs parses argv like Kimi's commander program: -S/--session/-r
// take an optional value, the first positional is a subcommand.
func parseKimiArgs(args []string) (kimiArgs, error) {
	var a kimiArgs
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(args[i], "=")
		switch {
		case !strings.HasPrefix(args[i], "-"):
			if kimiFakeUtilities[args[i]] {
				a.utility = args[i]
				return a, nil
			}
			return a, kimiExit{1, fmt.Sprintf("error: too many arguments. Expected 0 arguments but got 1.")}
		case name == "-S" || name == "--session" || name == "-r":
			a.hasSession = true
			if !hasValue && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				value = args[i]
			}
			a.session = value
		case kimiFakeValue[name]:
			if !hasValue {
				if i+1 >= len(args) {
					return a, kimiExit{1, fmt.Sprintf("error: option '%s' argument missing", name)}
				}
				i++
				value = args[i]
			}
			a.value(name, value)
		case kimiFakeBool[name]:
			a.flag(name)
		default:
			return a, kimiExit{1, fmt.Sprintf("error: unknown option '%s'", name)}
		}
	}
	return a, nil
}

func (a *kimiArgs) value(name, v string) {
	switch name {
	case "-p", "--prompt":
		a.prompt, a.hasPrompt = v, true
	case "--agent-file":
		a.agentFile = v
	case "--agent":
		a.agent = v
	}
}

func (a *kimiArgs) flag(name string) {
	switch name {
	case "-c", "--continue":
		a.cont = true
	case "-y", "--yolo":
		a.yolo = true
	case "--auto":
		a.auto = true
	case "-h", "--help":
		a.help = true
	case "-V", "--version":
		a.version = true
	}
}

// check applies Kimi's refusals of flag combinations.
func (a kimiArgs) check() error {
	switch {
	case a.hasPrompt && a.yolo:
		return kimiExit{1, "Cannot combine --prompt with --yolo."}
	case a.hasPrompt && a.auto:
		return kimiExit{1, "Cannot combine --prompt with --auto."}
	case (a.agentFile != "" || a.agent != "") && (a.hasSession || a.cont):
		return kimiExit{1, "Cannot combine --agent/--agent-file with --session/--continue: the agent is bound at session creation."}
	}
	return nil
}

func runKimi(inv invocation) int {
	k, err := readKnobs(inv.getenv)
	if err != nil {
		fmt.Fprintln(inv.stderr, "fake kimi:", err)
		return 2
	}
	entry := logEntry{Harness: "kimi"}
	code := kimiMain(inv, k, &entry)
	if err := writeLog(inv, k, entry); err != nil {
		fmt.Fprintln(inv.stderr, "fake kimi:", err)
		return 1
	}
	return finish(inv, k, code)
}

func kimiMain(inv invocation, k knobs, entry *logEntry) int {
	a, err := parseKimiArgs(inv.args)
	if err == nil {
		err = a.check()
	}
	switch {
	case err != nil:
		return reportKimi(inv, err)
	case a.version:
		fmt.Fprintln(inv.stdout, KimiVersion)
		return 0
	case a.help:
		fmt.Fprintln(inv.stdout, "Usage: kimi [options] [command]\n\nThe Starting Point for Next-Gen Agents")
		return 0
	case a.utility != "":
		fmt.Fprintf(inv.stdout, "kimi %s: nothing to do in the fake\n", a.utility)
		return 0
	}
	r := &kimiRun{inv: inv, k: k, a: a}
	err = r.run()
	entry.Context, entry.SessionID = r.context, r.id
	return reportKimi(inv, err)
}

func reportKimi(inv invocation, err error) int {
	var ke kimiExit
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ke):
		if ke.msg != "" {
			fmt.Fprintln(inv.stderr, ke.msg)
		}
		return ke.code
	}
	fmt.Fprintln(inv.stderr, "error:", err)
	return 1
}
