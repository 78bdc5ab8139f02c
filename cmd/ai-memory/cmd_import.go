package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/launcher"
	"github.com/urfave/cli/v2"
)

func newImportCommand(io stdio) *cli.Command {
	return &cli.Command{
		Name:  "import",
		Usage: "backfill this checkout's existing native sessions into the selected workstream (read-only)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "harness", Usage: "only sessions of `HARNESS` (" + strings.Join(harness.Names(), ", ") + ")"},
			&cli.StringFlag{Name: "session", Usage: "only the native session `ID`"},
			&cli.BoolFlag{Name: "all", Usage: "every session of this checkout (the default)"},
			&cli.StringFlag{Name: "workstream", Usage: "import into the existing workstream `NAME`"},
			&cli.BoolFlag{Name: "any-checkout", Usage: "with --session: import it even if it was recorded in another directory (a moved checkout)"},
			&cli.BoolFlag{Name: "link", Usage: "make the (newest) imported session the workstream's current one"},
			&cli.BoolFlag{Name: "json", Usage: "print the summary as JSON"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError{fmt.Errorf("unexpected argument %q; use --session ID", c.Args().First())}
			}
			if c.Bool("all") && c.String("session") != "" {
				return usageError{fmt.Errorf("--all and --session cannot be combined")}
			}
			stats, err := launcher.ImportSessions(c.Context, launcher.ImportOptions{
				Harness: c.String("harness"), Session: c.String("session"),
				Workstream: c.String("workstream"), Link: c.Bool("link"), AnyCheckout: c.Bool("any-checkout"),
			}, launcher.Env{Stdin: io.in, Stdout: io.outFile(), Stderr: io.errFile()})
			if err != nil && len(stats) == 0 {
				return err
			}
			// A partial import (some transcripts unreadable) reports what
			// it did, then fails with what it could not do.
			if c.Bool("json") {
				if stats == nil {
					stats = []launcher.ImportStats{}
				}
				enc := json.NewEncoder(c.App.Writer)
				enc.SetIndent("", "  ")
				if perr := enc.Encode(stats); perr != nil {
					return perr
				}
				return err
			}
			if perr := printImport(c, stats); perr != nil {
				return perr
			}
			return err
		},
	}
}

func printImport(c *cli.Context, stats []launcher.ImportStats) error {
	if len(stats) == 0 {
		_, err := fmt.Fprintln(c.App.Writer, "No sessions of this checkout found.")
		return err
	}
	for _, s := range stats {
		fmt.Fprintf(c.App.Writer, "%s %s: %d added, %d already present, %d loss note(s)\n",
			s.Harness, s.NativeSessionID, s.Added, s.Skipped, s.Losses)
		for _, l := range s.LossNotes {
			fmt.Fprintf(c.App.Writer, "  - %s\n", l)
		}
	}
	return nil
}
