package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/ai-memory/ai-memory/launcher"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/mcpserver"
	"github.com/urfave/cli/v2"
)

func newMCPCommand() *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve this workstream's memory as MCP tools on stdin/stdout (read-only; see docs/mcp.md)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "workstream-id", Usage: "workstream to serve (default: $AI_MEMORY_WORKSTREAM_ID, else this worktree's selected one)"},
		},
		Action: func(c *cli.Context) error {
			if c.Args().Len() > 0 {
				return usageError{fmt.Errorf("mcp takes no arguments; pick a workstream with --workstream-id")}
			}
			env, err := newLedgerCLIEnv(c)
			if err != nil {
				return err
			}
			cfg, err := mcpConfig(c.Context, env, c.String("workstream-id"))
			if err != nil {
				return err
			}
			return mcpserver.Serve(c.Context, cfg)
		},
	}
}

// mcpConfig fixes the server's scope once, at start: the workstream
// (flag, then $AI_MEMORY_WORKSTREAM_ID, then this checkout's selected one)
// and this checkout's repository, which that workstream must belong to.
// With no ledger or no workstream yet the server still starts and its
// tools answer empty.
func mcpConfig(ctx context.Context, env ledgerCLIEnv, flag string) (mcpserver.Config, error) {
	cfg := mcpserver.Config{Version: version, RunID: strings.TrimSpace(env.getenv("AI_MEMORY_RUN_ID")),
		Open: func() (ledger.Ledger, error) { return launcher.OpenExistingLedger(env.getenv) }}
	db, err := openLedgerIfExists(ctx, env)
	if err != nil || db == nil {
		return cfg, err
	}
	defer db.Close()
	if scope, err := cwdScope(ctx, env, db); err == nil {
		cfg.RepoFingerprint = scope.RepoFingerprint
	}
	cfg.WorkstreamID, err = searchWorkstreamID(ctx, db, env, flag)
	if err != nil && flag == "" && env.getenv("AI_MEMORY_WORKSTREAM_ID") == "" {
		err = nil // this checkout has no workstream yet
	}
	return cfg, err
}
