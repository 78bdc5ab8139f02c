package main

import (
	"fmt"
	"os"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/urfave/cli/v2"
)

// newHookCommand is the entry point harness hooks call during a managed
// run (not for people). A failing hook must never break the agent: errors
// are reported on stderr and the hook exits 0; the launcher then sees no
// acknowledgement and sends the packet again next time.
func newHookCommand() *cli.Command {
	return &cli.Command{
		Name:   "hook",
		Usage:  "hook entry points called by harnesses during `ai-memory run`",
		Hidden: true,
		Subcommands: []*cli.Command{{
			Name:  "claude-session-start",
			Usage: "Claude Code SessionStart hook: deliver the handoff packet",
			Action: func(c *cli.Context) error {
				if err := harness.ClaudeSessionStartHook(c.App.Reader, c.App.Writer, os.Getenv); err != nil {
					fmt.Fprintf(c.App.ErrWriter, "ai-memory hook: %v\n", err)
				}
				return nil
			},
		}},
	}
}
