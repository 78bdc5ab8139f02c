package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/urfave/cli/v2"
)

// Shell completion: `completion SHELL` prints a small script that asks the
// hidden `__complete WORDS...` command for candidates. The candidates come
// from the live command tree, so commands and flags never drift from the
// scripts; harness names come from the harness registry and workstream
// names from this checkout's ledger. (urfave/cli's own bash completion
// cannot complete flag values, which is where workstream names go.)

var completionScripts = map[string]string{
	"bash": `# ai-memory bash completion: eval "$(ai-memory completion bash)"
_ai_memory() {
  local IFS=$'\n'
  COMPREPLY=($(ai-memory __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _ai_memory ai-memory
`,
	"zsh": `#compdef ai-memory
# ai-memory zsh completion: source <(ai-memory completion zsh)
_ai_memory() {
  local -a cands
  cands=("${(@f)$(ai-memory __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -a cands
}
compdef _ai_memory ai-memory
`,
	"fish": `# ai-memory fish completion: ai-memory completion fish | source
function __ai_memory_complete
    set -l tokens (commandline -opc) (commandline -ct)
    ai-memory __complete $tokens[2..-1] 2>/dev/null
end
complete -c ai-memory -f -a '(__ai_memory_complete)'
`,
}

func newCompletionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash, zsh or fish)",
		ArgsUsage: "bash|zsh|fish",
		Description: "bash: eval \"$(ai-memory completion bash)\"   zsh: source <(ai-memory completion zsh)\n" +
			"fish: ai-memory completion fish | source   (add the line to your shell's startup file)",
		Action: func(c *cli.Context) error {
			script, ok := completionScripts[c.Args().First()]
			if c.Args().Len() != 1 || !ok {
				return usageError{fmt.Errorf("completion needs one shell: bash, zsh or fish (e.g. ai-memory completion bash)")}
			}
			_, err := io.WriteString(c.App.Writer, script)
			return err
		},
	}
}

func newCompleteCommand() *cli.Command {
	return &cli.Command{
		Name:            "__complete",
		Hidden:          true,
		SkipFlagParsing: true,
		Usage:           "print completion candidates for the words typed so far (used by the completion scripts)",
		Action: func(c *cli.Context) error {
			words := c.Args().Slice()
			if len(words) == 0 {
				words = []string{""}
			}
			cands := completeWords(c.App.Commands, words, func(kind string) []string {
				return dynamicValues(c.Context, c, kind)
			})
			for _, s := range cands {
				fmt.Fprintln(c.App.Writer, s)
			}
			return nil
		},
	}
}

// completeWords returns the candidates for the last word, given the words
// before it. values supplies dynamic values: "harness", "workstream" (names)
// or "workstream-id".
func completeWords(cmds []*cli.Command, words []string, values func(kind string) []string) []string {
	cur, before := words[len(words)-1], words[:len(words)-1]
	var cmd *cli.Command
	level, positional := cmds, 0
	var flags []cli.Flag
	pendingFlag := ""
	for _, w := range before {
		if pendingFlag != "" {
			pendingFlag = ""
			continue
		}
		if strings.HasPrefix(w, "-") {
			if f := findFlag(flags, w); f != nil && takesValue(f) && !strings.Contains(w, "=") {
				pendingFlag = w
			}
			continue
		}
		if sub := findCommand(level, w); sub != nil && positional == 0 {
			cmd, level, flags = sub, sub.Subcommands, sub.Flags
			continue
		}
		positional++
	}
	var out []string
	switch {
	case pendingFlag != "":
		out = values(valueKind(strings.TrimLeft(pendingFlag, "-")))
	case strings.HasPrefix(cur, "-"):
		for _, f := range flags {
			for _, n := range f.Names() {
				if len(n) > 1 {
					out = append(out, "--"+n)
				}
			}
		}
	case cmd != nil && cmd.Name == "run" && positional == 0:
		out = values("harness")
	case cmd != nil && cmd.Name == "completion" && positional == 0:
		out = []string{"bash", "fish", "zsh"}
	case positional == 0:
		for _, c := range level {
			if !c.Hidden {
				out = append(out, c.Name)
			}
		}
	}
	return filterPrefix(out, cur)
}

// valueKind maps a flag to the kind of value it takes.
func valueKind(flag string) string {
	switch flag {
	case "harness", "runtime":
		return "harness"
	case "workstream", "new":
		return "workstream"
	case "workstream-id":
		return "workstream-id"
	}
	return ""
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

func findFlag(flags []cli.Flag, word string) cli.Flag {
	name, _, _ := strings.Cut(strings.TrimLeft(word, "-"), "=")
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

func takesValue(f cli.Flag) bool {
	d, ok := f.(cli.DocGenerationFlag)
	return ok && d.TakesValue()
}

func filterPrefix(list []string, prefix string) []string {
	var out []string
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// dynamicValues reads harness names from the registry and this checkout's
// workstreams from the ledger; any failure just means no candidates.
func dynamicValues(ctx context.Context, c *cli.Context, kind string) []string {
	switch kind {
	case "harness":
		return harness.Names()
	case "workstream", "workstream-id":
		env, err := newLedgerCLIEnv(c)
		if err != nil {
			return nil
		}
		list, err := listWorkstreams(ctx, env)
		if err != nil {
			return nil
		}
		var out []string
		for _, w := range list {
			if kind == "workstream" {
				out = append(out, w.Name)
			} else {
				out = append(out, w.ID)
			}
		}
		return out
	}
	return nil
}
