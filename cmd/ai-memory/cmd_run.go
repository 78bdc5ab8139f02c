package main

import (
	"fmt"
	"os"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/launcher"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/urfave/cli/v2"
)

func newRunCommand(io stdio) *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "launch a coding agent in this checkout's workstream and record its session",
		ArgsUsage: "[HARNESS] [NATIVE ARGS...]",
		Description: "Wrapper flags come before the harness name; everything after it is the harness's own argv,\n" +
			"passed through in order (no -- needed). Without a harness, continues the latest usable session.\n" +
			"Harnesses: " + harness.Usage() + ".",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "workstream", Usage: "use the existing workstream `NAME`"},
			&cli.StringFlag{Name: "new", Usage: "create and use a new workstream `NAME` (fresh native sessions)"},
			&cli.StringFlag{Name: "executable", Usage: "run the harness from `PATH` (or a name looked up on PATH)"},
			&cli.BoolFlag{Name: "yolo", Usage: "map to the harness's own skip-permissions flag"},
			&cli.BoolFlag{Name: "fresh", Usage: "start a new native session even if one is linked"},
			&cli.BoolFlag{Name: "no-session-index", Usage: "do not update .agent-sessions/session-history.json"},
			&cli.BoolFlag{Name: "no-mcp", Usage: "do not give the agent the memory as MCP tools this run (also AI_MEMORY_MCP=0)"},
			&cli.BoolFlag{Name: "offline", Usage: "record this run in this machine's own ledger, not the shared one; `ai-memory ledger sync` sends it later (also AI_MEMORY_OFFLINE=1, config offline = true)"},
		},
		Action: func(c *cli.Context) error {
			// An empty value would read as "not given" below; the launcher
			// validates every non-empty name itself.
			for _, f := range []string{"workstream", "new"} {
				if c.IsSet(f) && c.String(f) == "" {
					if err := ledger.ValidateName(""); err != nil {
						return usageError{fmt.Errorf("--%s: %w", f, err)}
					}
				}
			}
			if c.Bool("offline") {
				// Exported, so the agent's hooks and MCP server read the
				// same local ledger (ledger.DefaultWhere).
				if err := os.Setenv("AI_MEMORY_OFFLINE", "1"); err != nil {
					return err
				}
			}
			args := c.Args().Slice()
			o := launcher.Options{
				Workstream:     c.String("workstream"),
				New:            c.String("new"),
				Executable:     c.String("executable"),
				Yolo:           c.Bool("yolo"),
				Fresh:          c.Bool("fresh"),
				NoSessionIndex: c.Bool("no-session-index"),
				NoMCP:          c.Bool("no-mcp"),
			}
			if len(args) > 0 {
				o.Harness, o.Args = args[0], args[1:]
			}
			return launcher.Run(c.Context, o, launcher.Env{Stdin: io.in, Stdout: io.outFile(), Stderr: io.errFile()})
		},
	}
}
