package harnesstest

import (
	"fmt"
	"strings"
)

// opencodeArgs is the parsed command line of the fake OpenCode (yargs).
type opencodeArgs struct {
	sub                    string // "", "run" or a utility
	utility                bool
	session                string // -s/--session
	cont, fork, auto, json bool
	interactive            bool // run -i
	help, version          bool
	prompt                 string
}

var (
	opencodeFakeValue = map[string]bool{"-m": true, "--model": true, "-s": true, "--session": true,
		"--agent": true, "--format": true, "--log-level": true, "--port": true, "--hostname": true,
		"--prompt": true, "--title": true, "-f": true, "--file": true, "--variant": true, "--dir": true}
	opencodeFakeBool = map[string]bool{"-c": true, "--continue": true, "--fork": true, "--auto": true,
		"-i": true, "--interactive": true, "-h": true, "--help": true, "-v": true, "--version": true,
		"--print-logs": true, "--share": true}
	opencodeFakeUtilities = map[string]bool{"completion": true, "acp": true, "mcp": true, "attach": true,
		"debug": true, "providers": true, "auth": true, "agent": true, "upgrade": true, "uninstall": true,
		"serve": true, "web": true, "models": true, "stats": true, "export": true, "import": true,
		"github": true, "pr": true, "session": true, "plugin": true, "db": true}
)

// parseOpenCodeArgs parses argv like OpenCode 1.18's yargs layout: options
// anywhere, the first word a subcommand, the rest of `run` the message.
func parseOpenCodeArgs(args []string) (opencodeArgs, error) {
	var a opencodeArgs
	var words []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			words = append(words, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			if a.sub == "" && len(words) == 0 && (arg == "run" || opencodeFakeUtilities[arg]) {
				a.sub, a.utility = arg, arg != "run"
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
		case opencodeFakeValue[name]:
			if !has {
				if i+1 >= len(args) {
					return a, fmt.Errorf("Not enough arguments following: %s", strings.TrimLeft(name, "-"))
				}
				i++
				value = args[i]
			}
			a.value(name, value)
		case opencodeFakeBool[name] && !has:
			a.flag(name)
		default:
			return a, fmt.Errorf("Unknown argument: %s", strings.TrimLeft(name, "-"))
		}
	}
	if a.sub == "run" {
		a.prompt = strings.Join(words, " ")
	}
	return a, nil
}

func (a *opencodeArgs) value(name, v string) {
	switch name {
	case "-s", "--session":
		a.session = v
	case "--format":
		a.json = v == "json"
	case "--prompt":
		a.prompt = v
	}
}

func (a *opencodeArgs) flag(name string) {
	switch name {
	case "-c", "--continue":
		a.cont = true
	case "--fork":
		a.fork = true
	case "--auto":
		a.auto = true
	case "-i", "--interactive":
		a.interactive = true
	case "-h", "--help":
		a.help = true
	case "-v", "--version":
		a.version = true
	}
}
