package main

import (
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/urfave/cli/v2"
)

// newHookCommand is the entry point harness hooks call during a managed
// run (not for people): `ai-memory hook <harness> <event>`, dispatched to
// the harness's descriptor. The plan writes the exact command into the
// run's own settings, so the spelling is never in a user's config. A
// failing hook must never break the agent: errors are reported on stderr
// and the hook exits 0; the launcher then sees no acknowledgement and sends
// the packet again next time.
func newHookCommand() *cli.Command {
	var subs []*cli.Command
	for _, d := range harness.All() {
		if len(d.Hooks) == 0 {
			continue
		}
		subs = append(subs, hookHarnessCommand(d))
	}
	return &cli.Command{
		Name:        "hook",
		Usage:       "hook entry points called by harnesses during `ai-memory run`",
		ArgsUsage:   "HARNESS EVENT",
		Hidden:      true,
		Subcommands: subs,
	}
}

func hookHarnessCommand(d harness.Descriptor) *cli.Command {
	events := make([]string, 0, len(d.Hooks))
	for e := range d.Hooks {
		events = append(events, e)
	}
	sort.Strings(events)
	cmd := &cli.Command{Name: d.Name, Aliases: d.Aliases, Usage: d.Product + " hooks"}
	for _, e := range events {
		hook := d.Hooks[e]
		cmd.Subcommands = append(cmd.Subcommands, &cli.Command{
			Name:  e,
			Usage: d.Product + " " + e + " hook: deliver the handoff packet",
			Action: func(c *cli.Context) error {
				if err := hook(c.App.Reader, c.App.Writer, os.Getenv); err != nil {
					fmt.Fprintf(c.App.ErrWriter, "ai-memory hook: %v\n", err)
				}
				return nil
			},
		})
	}
	cmd.Action = func(c *cli.Context) error {
		return usageError{errors.New("ai-memory hook " + d.Name + ": name the event, one of " + fmt.Sprint(events))}
	}
	return cmd
}
