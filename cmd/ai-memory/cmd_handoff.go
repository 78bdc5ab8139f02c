package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ai-memory/ai-memory/launcher"
	"github.com/urfave/cli/v2"
)

func newHandoffCommand(io stdio) *cli.Command {
	return &cli.Command{
		Name:  "handoff",
		Usage: "print the packet the next `ai-memory run HARNESS` would receive",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "harness", Usage: "the receiving `HARNESS` (default: the most recently linked one)"},
			&cli.StringFlag{Name: "workstream", Usage: "the workstream `NAME` (default: the selected one)"},
			&cli.BoolFlag{Name: "json", Usage: "print the packet and its range as JSON"},
		},
		Action: func(c *cli.Context) error {
			p, err := launcher.PreviewHandoff(c.Context, c.String("harness"), c.String("workstream"),
				launcher.Env{Stdin: io.in, Stdout: io.outFile(), Stderr: io.errFile()})
			nothing := errors.Is(err, launcher.ErrNothingYet)
			if err != nil && !nothing {
				return err
			}
			if c.Bool("json") {
				enc := json.NewEncoder(c.App.Writer)
				enc.SetIndent("", "  ")
				return enc.Encode(p)
			}
			if nothing {
				_, err := fmt.Fprintf(c.App.Writer, "Nothing to hand off yet: %v.\n", err)
				return err
			}
			if p.Packet == "" {
				_, err := fmt.Fprintf(c.App.Writer, "Nothing to hand off: %s has seen everything in workstream '%s'.\n", p.Harness, p.Workstream)
				return err
			}
			_, err = fmt.Fprint(c.App.Writer, p.Packet)
			return err
		},
	}
}
