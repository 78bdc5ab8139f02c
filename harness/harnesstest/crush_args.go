package harnesstest

import (
	"fmt"
	"strings"
)

// crushArgs is the parsed command line of the fake Crush (cobra, v0.90.0
// internal/cmd/root.go and run.go).
type crushArgs struct {
	sub                string // "", "run" or a utility
	utility            bool
	session, cwd, data string
	cont, yolo, help   bool
	version, quiet     bool
	prompt             string
}

var (
	crushFakeValue = map[string]bool{"-c": true, "--cwd": true, "-D": true, "--data-dir": true,
		"-H": true, "--host": true, "-s": true, "--session": true, "-m": true, "--model": true,
		"--small-model": true}
	crushFakeBool = map[string]bool{"-d": true, "--debug": true, "-h": true, "--help": true,
		"-y": true, "--yolo": true, "-C": true, "--continue": true, "-q": true, "--quiet": true,
		"-v": true, "--version": true, "--verbose": true}
	crushFakeUtilities = map[string]bool{"dirs": true, "projects": true, "update-providers": true,
		"logs": true, "logout": true, "signout": true, "schema": true, "login": true, "auth": true,
		"stats": true, "session": true, "sessions": true, "s": true, "models": true, "server": true,
		"completion": true, "help": true}
)

// parseCrushArgs parses argv like cobra: options anywhere, the first word a
// subcommand (run, its alias r, or a utility), the rest of run the prompt.
// --yolo is a root flag only: `run --yolo` is an unknown flag.
func parseCrushArgs(args []string) (crushArgs, error) {
	var a crushArgs
	var words []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			words = append(words, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			if a.sub == "" && len(words) == 0 && (arg == "run" || arg == "r" || crushFakeUtilities[arg]) {
				a.sub, a.utility = arg, arg != "run" && arg != "r"
				if a.sub == "r" {
					a.sub = "run"
				}
				if a.utility {
					return a, nil
				}
				continue
			}
			words = append(words, arg)
			continue
		}
		name, value, has := strings.Cut(arg, "=")
		switch {
		case crushFakeValue[name]:
			if !has {
				if i+1 >= len(args) {
					return a, fmt.Errorf("flag needs an argument: %s", name)
				}
				i++
				value = args[i]
			}
			a.value(name, value)
		case crushFakeBool[name] && !has:
			a.flag(name)
		default:
			return a, fmt.Errorf("unknown flag: %s", name)
		}
	}
	if a.yolo && a.sub == "run" {
		return a, fmt.Errorf("unknown flag: --yolo")
	}
	if a.session != "" && a.cont {
		return a, fmt.Errorf("if any flags in the group [session continue] are set none of the others can be; [continue session] were all set")
	}
	a.prompt = strings.Join(words, " ")
	return a, nil
}

func (a *crushArgs) value(name, v string) {
	switch name {
	case "-s", "--session":
		a.session = v
	case "-c", "--cwd":
		a.cwd = v
	case "-D", "--data-dir":
		a.data = v
	}
}

func (a *crushArgs) flag(name string) {
	switch name {
	case "-C", "--continue":
		a.cont = true
	case "-y", "--yolo":
		a.yolo = true
	case "-h", "--help":
		a.help = true
	case "-q", "--quiet":
		a.quiet = true
	case "--version":
		a.version = true
	case "-v":
		a.version = a.sub != "run" // run's -v is --verbose
	}
}
