package harnesstest

import (
	"fmt"
	"strings"
)

// codexArgs is the parsed command line of the fake Codex.
type codexArgs struct {
	sub           string // "", "exec", "resume", "fork" or a utility
	execResume    bool
	execUtility   string // exec review / exec help
	sessionID     string
	last          bool
	json          bool
	yolo          bool
	help, version bool
	configs       []string // raw -c values, in order
	prompt        string
}

// Options of Codex 0.171's clap definitions. Scope matters: exec-only and
// resume-only options are rejected elsewhere, like clap does.
var (
	codexRootValue = map[string]bool{"-c": true, "--config": true, "-m": true, "--model": true, "-p": true, "--profile": true,
		"-s": true, "--sandbox": true, "-a": true, "--ask-for-approval": true, "-C": true, "--cd": true,
		"-i": true, "--image": true, "--add-dir": true, "--enable": true, "--disable": true, "--local-provider": true}
	codexRootBool = map[string]bool{"--dangerously-bypass-approvals-and-sandbox": true, "--yolo": true, "--full-auto": true,
		"--search": true, "--oss": true, "--no-daemon": true, "-h": true, "--help": true, "-V": true, "--version": true}
	codexExecValue = map[string]bool{"--color": true, "-o": true, "--output-last-message": true, "--output-schema": true}
	codexExecBool  = map[string]bool{"--json": true, "--experimental-json": true, "--skip-git-repo-check": true,
		"--ephemeral": true, "--ignore-user-config": true, "--ignore-rules": true}
	codexResumeBool = map[string]bool{"--last": true, "--all": true}
	codexUtilities  = map[string]bool{"review": true, "login": true, "logout": true, "mcp": true, "plugin": true,
		"mcp-server": true, "app-server": true, "remote-control": true, "completion": true, "update": true,
		"doctor": true, "sandbox": true, "debug": true, "apply": true, "a": true, "archive": true, "delete": true,
		"unarchive": true, "cloud": true, "exec-server": true, "features": true, "help": true}
)

// usageError is a clap usage error (exit code 2).
func usageError(format string, a ...any) error {
	return codexExit{2, "error: " + fmt.Sprintf(format, a...)}
}

// parseCodexArgs parses argv like clap with Codex's subcommand layout.
func parseCodexArgs(args []string) (codexArgs, error) {
	var c codexArgs
	var pos []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			if err := c.positional(arg, &pos); err != nil {
				return c, err
			}
			if c.sub != "" && codexUtilities[c.sub] {
				return c, nil
			}
			continue
		}
		n, err := c.option(args, i)
		if err != nil {
			return c, err
		}
		i += n
	}
	return c, c.assign(pos)
}

// positional handles subcommand words; other words are collected.
func (c *codexArgs) positional(arg string, pos *[]string) error {
	switch {
	case c.sub == "" && len(*pos) == 0 && (arg == "exec" || arg == "e"):
		c.sub = "exec"
	case c.sub == "" && len(*pos) == 0 && (arg == "resume" || arg == "fork" || codexUtilities[arg]):
		c.sub = arg
	case c.sub == "exec" && !c.execResume && len(*pos) == 0 && arg == "resume":
		c.execResume = true
	case c.sub == "exec" && !c.execResume && len(*pos) == 0 && (arg == "review" || arg == "help"):
		c.execUtility = arg
	default:
		*pos = append(*pos, arg)
	}
	return nil
}

// option parses the option at args[i] and returns how many extra elements
// it consumed.
func (c *codexArgs) option(args []string, i int) (int, error) {
	arg := args[i]
	name, value, hasValue := strings.Cut(arg, "=")
	if strings.HasPrefix(arg, "-c") && !strings.HasPrefix(arg, "--") && len(arg) > 2 {
		name, value, hasValue = "-c", arg[2:], true
	}
	inExec, inResume := c.sub == "exec", c.sub == "resume" || c.sub == "fork" || c.execResume
	switch {
	case codexRootValue[name] || (inExec && codexExecValue[name]):
		used := 0
		if !hasValue {
			if i+1 >= len(args) {
				return 0, usageError("a value is required for '%s <VALUE>' but none was supplied", name)
			}
			value, used = args[i+1], 1
		}
		if name == "-c" || name == "--config" {
			c.configs = append(c.configs, value)
		}
		return used, nil
	case hasValue:
		return 0, usageError("unexpected argument '%s' found", arg)
	case codexRootBool[name], inExec && codexExecBool[name], inResume && codexResumeBool[name]:
		c.flag(name)
		return 0, nil
	}
	return 0, usageError("unexpected argument '%s' found", arg)
}

func (c *codexArgs) flag(name string) {
	switch name {
	case "--dangerously-bypass-approvals-and-sandbox", "--yolo":
		c.yolo = true
	case "-h", "--help":
		c.help = true
	case "-V", "--version":
		c.version = true
	case "--json", "--experimental-json":
		c.json = true
	case "--last":
		c.last = true
	}
}

// assign gives the collected positionals their meaning: [SESSION_ID]
// [PROMPT] after resume/fork (just [PROMPT] with --last), else [PROMPT].
func (c *codexArgs) assign(pos []string) error {
	if (c.sub == "resume" || c.sub == "fork" || c.execResume) && !c.last && len(pos) > 0 {
		c.sessionID, pos = pos[0], pos[1:]
	}
	if c.sub == "fork" && len(pos) > 0 && c.sessionID == "" {
		c.sessionID, pos = pos[0], pos[1:]
	}
	if len(pos) > 1 {
		return usageError("unexpected argument '%s' found", pos[1])
	}
	if len(pos) == 1 {
		c.prompt = pos[0]
	}
	return nil
}
