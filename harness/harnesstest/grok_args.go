package harnesstest

import (
	"fmt"
	"strings"
)

// grokArgs is the parsed command line of the fake Grok Build (clap,
// xai-grok-pager/src/app/cli.rs of 1.0.6).
type grokArgs struct {
	sub, prompt, sessionID, rules string
	resume                        *string // -r/--resume [id]; "" = bare
	cont, fork, yolo, help        bool
	version, utility              bool
}

var (
	grokFakeValue = map[string]bool{"--cwd": true, "-p": true, "--single": true, "--print": true,
		"-m": true, "--model": true, "--rules": true, "--append-system-prompt": true, "--load": true,
		"-s": true, "--session-id": true, "--output-format": true, "--permission-mode": true,
		"--tools": true, "--disallowed-tools": true, "--max-turns": true, "--allow": true, "--deny": true}
	grokFakeBool = map[string]bool{"-c": true, "--continue": true, "--fork-session": true, "--yolo": true,
		"--always-approve": true, "--dangerously-skip-permissions": true, "-h": true, "--help": true,
		"-v": true, "-V": true, "--version": true, "--debug": true, "--verbatim": true, "--no-auto-update": true}
)

// parseGrokArgs parses argv like clap: options anywhere; a first word
// among the subcommands is a utility (any other positional is an error).
func parseGrokArgs(args []string) (grokArgs, error) {
	var a grokArgs
	for i := 0; i < len(args); i++ {
		arg := args[i]
		name, value, has := strings.Cut(arg, "=")
		switch {
		case !strings.HasPrefix(arg, "-"):
			if i == 0 || a.sub == "" && grokFakeUtility(arg) {
				if grokFakeUtility(arg) {
					a.sub, a.utility = arg, true
					return a, nil
				}
			}
			return a, fmt.Errorf("unexpected argument '%s' found", arg)
		case name == "-r" || name == "--resume":
			v := ""
			if has {
				v = value
			} else if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				v = args[i]
			}
			a.resume = &v
		case grokFakeValue[name]:
			if !has {
				if i+1 >= len(args) {
					return a, fmt.Errorf("a value is required for '%s <VALUE>' but none was supplied", name)
				}
				i++
				value = args[i]
			}
			a.value(name, value)
		case grokFakeBool[name] && !has:
			a.flag(name)
		default:
			return a, fmt.Errorf("unexpected argument '%s' found", arg)
		}
	}
	if a.sessionID != "" && (a.resume != nil || a.cont) && !a.fork {
		return a, fmt.Errorf("--session-id with --resume/--continue requires --fork-session")
	}
	return a, nil
}

func grokFakeUtility(w string) bool {
	switch w {
	case "agent", "mcp", "plugin", "models", "sessions", "login", "logout", "update", "version", "doctor", "export":
		return true
	}
	return false
}

func (a *grokArgs) value(name, v string) {
	switch name {
	case "-p", "--single", "--print":
		a.prompt = v
	case "-s", "--session-id":
		a.sessionID = v
	case "--load":
		a.resume = &v
	case "--rules", "--append-system-prompt":
		a.rules = v
	}
}

func (a *grokArgs) flag(name string) {
	switch name {
	case "-c", "--continue":
		a.cont = true
	case "--fork-session":
		a.fork = true
	case "--yolo", "--always-approve", "--dangerously-skip-permissions":
		a.yolo = true
	case "-h", "--help":
		a.help = true
	case "-v", "-V", "--version":
		a.version = true
	}
}
