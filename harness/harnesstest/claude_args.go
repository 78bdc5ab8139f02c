package harnesstest

import (
	"fmt"
	"strings"
)

// claudeArgs is the parsed command line of the fake Claude.
type claudeArgs struct {
	print, cont, fork, yolo, help, version, noPersist, bare bool
	resume                                                  bool
	resumeID, sessionID, outputFormat                       string
	settings, mcpConfigs                                    []string
	prompt                                                  string
	utility                                                 string
}

// claudeBool and claudeValue list the options the fake accepts, as Claude
// Code 2.1.332 spells them; anything else is an unknown option, as in the
// real CLI (commander), which is what catches a launcher adding bad flags.
var claudeBool = map[string]bool{
	"-p": true, "--print": true, "-c": true, "--continue": true, "--fork-session": true,
	"--dangerously-skip-permissions": true, "--allow-dangerously-skip-permissions": true,
	"--verbose": true, "--no-session-persistence": true, "--bare": true, "--ide": true,
	"--strict-mcp-config": true, "--include-partial-messages": true, "--replay-user-messages": true,
	"-h": true, "--help": true, "-v": true, "--version": true, "-d": true, "--debug": true,
}

var claudeValue = map[string]bool{
	"--session-id": true, "--settings": true, "--model": true, "--permission-mode": true,
	"--append-system-prompt": true, "--system-prompt": true, "--output-format": true,
	"--input-format": true, "--add-dir": true, "--allowedTools": true, "--allowed-tools": true,
	"--disallowedTools": true, "--disallowed-tools": true, "--mcp-config": true, "--max-turns": true,
	"--fallback-model": true, "--agents": true, "--agent": true, "--betas": true,
	"--setting-sources": true, "--plugin-dir": true, "--max-budget-usd": true, "--json-schema": true,
	"--tools": true, "--name": true,
}

var claudeUtilities = map[string]bool{
	"agents": true, "auth": true, "auto-mode": true, "doctor": true, "install": true,
	"mcp": true, "plugin": true, "plugins": true, "project": true, "setup-token": true,
	"ultrareview": true, "update": true, "upgrade": true,
}

// parseClaudeArgs parses argv like commander: options anywhere, "--" ends
// them, --flag=value accepted, at most one positional prompt.
func parseClaudeArgs(args []string) (claudeArgs, error) {
	var a claudeArgs
	if len(args) > 0 && claudeUtilities[args[0]] {
		a.utility = args[0]
		return a, nil
	}
	var positional []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			positional = append(positional, arg)
			continue
		}
		name, value, hasValue := strings.Cut(arg, "=")
		switch {
		case name == "--resume" || name == "-r":
			a.resume = true
			if hasValue {
				a.resumeID = value
			} else if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				a.resumeID, i = args[i+1], i+1
			}
		case claudeBool[name] && !hasValue:
			a.setBool(name)
		case claudeValue[name]:
			if !hasValue {
				if i+1 >= len(args) {
					return a, fmt.Errorf("error: option '%s <value>' argument missing", name)
				}
				value, i = args[i+1], i+1
			}
			a.setValue(name, value)
		default:
			return a, fmt.Errorf("error: unknown option '%s'", arg)
		}
	}
	if len(positional) > 1 {
		return a, fmt.Errorf("error: too many arguments. Expected 1 argument but got %d.", len(positional))
	}
	if len(positional) == 1 {
		a.prompt = positional[0]
	}
	return a, nil
}

func (a *claudeArgs) setBool(name string) {
	switch name {
	case "-p", "--print":
		a.print = true
	case "-c", "--continue":
		a.cont = true
	case "--fork-session":
		a.fork = true
	case "--dangerously-skip-permissions":
		a.yolo = true
	case "-h", "--help":
		a.help = true
	case "-v", "--version":
		a.version = true
	case "--no-session-persistence":
		a.noPersist = true
	case "--bare":
		a.bare = true
	}
}

func (a *claudeArgs) setValue(name, value string) {
	switch name {
	case "--session-id":
		a.sessionID = value
	case "--settings":
		a.settings = append(a.settings, value)
	case "--mcp-config":
		a.mcpConfigs = append(a.mcpConfigs, value)
	case "--output-format":
		a.outputFormat = value
	}
}
