package main

import (
	"context"
	"fmt"
	"io"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/urfave/cli/v2"
)

func newLedgerCommand() *cli.Command {
	return &cli.Command{
		Name:  "ledger",
		Usage: "inspect and maintain the ledger",
		Subcommands: []*cli.Command{newLedgerStatusCommand(), newLedgerSyncCommand(), newLedgerPushCommand(), {
			Name:  "rebuild",
			Usage: "rebuild the event table and search index from the JSONL segments on disk",
			Action: func(c *cli.Context) error {
				env, err := newLedgerCLIEnv(c)
				if err != nil {
					return err
				}
				return runLedgerRebuild(c.Context, env)
			},
		}},
	}
}

func runLedgerRebuild(ctx context.Context, env ledgerCLIEnv) error {
	w, err := ledger.DefaultWhere(env.getenv)
	if err != nil {
		return err
	}
	db, err := ledger.Open(ctx, w)
	if err != nil {
		return err
	}
	defer db.Close()
	res, err := db.Rebuild(ctx)
	if err != nil {
		return err
	}
	return printRebuild(env.out, res)
}

func printRebuild(w io.Writer, r ledger.RebuildResult) error {
	_, err := fmt.Fprintf(w, "rebuilt %d event(s) in %d workstream(s) from %d segment(s)\n", r.Events, r.Workstreams, r.Segments)
	if err == nil && r.Duplicates+r.Renumbered > 0 {
		_, err = fmt.Fprintf(w, "skipped %d duplicate record(s); renumbered %d event(s) left by interrupted imports\n", r.Duplicates, r.Renumbered)
	}
	if err == nil && r.Restored > 0 {
		_, err = fmt.Fprintf(w, "restored %d workstream(s) with their session links, cursors and runs from their state snapshots\n", r.Restored)
	}
	if err == nil && r.Renamed > 0 {
		_, err = fmt.Fprintf(w, "renamed %d restored workstream(s) to NAME-restored-ID because the name was taken; rename or remove the newer one with `ai-memory workstreams`\n", r.Renamed)
	}
	if err == nil && r.OrphanSegments > 0 {
		_, err = fmt.Fprintf(w, "ignored %d segment(s) of workstreams that have no state snapshot (written before ai-memory kept one) and that this ledger does not know\n", r.OrphanSegments)
	}
	return err
}
