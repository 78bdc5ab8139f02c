package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledgersync"
	"github.com/urfave/cli/v2"
)

func newLedgerSyncCommand() *cli.Command {
	return &cli.Command{
		Name:  "sync",
		Usage: "send the shared ledger what this machine kept while it was unreachable and the runs made with --offline; prints nothing when nothing is owed",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print a JSON array of what was sent ([] when nothing; see docs/json.md)"}},
		Action: func(c *cli.Context) error {
			env, err := newLedgerCLIEnv(c)
			if err != nil {
				return err
			}
			return runLedgerSync(c.Context, env, c.String("ledger"), c.Bool("json"))
		},
	}
}

func runLedgerSync(ctx context.Context, env ledgerCLIEnv, flag string, asJSON bool) error {
	w, _, err := ledger.Choose(env.getenv, flag)
	if err != nil {
		return usageError{err}
	}
	if w.Location == "" {
		if err := nothingOwedLocally(w.Home); err != nil {
			return err
		}
		return printSynced(env.out, nil, asJSON)
	}
	dst, err := ledger.Open(ctx, w)
	if err != nil {
		return fmt.Errorf("%w; nothing was sent: what is owed stays in %s", err, ledgersync.Dir(w.Home))
	}
	defer dst.Close()
	local := func() (ledger.Ledger, error) { return ledger.Open(ctx, ledger.Where{Home: w.Home}) }
	items, err := ledgersync.Sync(ctx, dst, w.Home, local)
	if perr := printSynced(env.out, items, asJSON); perr != nil {
		return perr
	}
	return err
}

// nothingOwedLocally: with the data home's own ledger in use there is
// nowhere to send what is owed; say so when something is.
func nothingOwedLocally(home string) error {
	j, o, err := ledgersync.Pending(home)
	if err != nil || j+o == 0 {
		return err
	}
	return usageError{fmt.Errorf("%d run journal(s) and %d offline run(s) in %s wait for the shared ledger, but the ledger in use is this data home's own; choose the shared one with --ledger, AI_MEMORY_LEDGER or the config file (docs/shared-ledger.md)", j, o, ledgersync.Dir(home))}
}

func printSynced(w io.Writer, items []ledgersync.Item, asJSON bool) error {
	if asJSON {
		if items == nil {
			items = []ledgersync.Item{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(items)
	}
	for _, it := range items {
		what := "the journal of run"
		if it.Kind == ledgersync.KindOffline {
			what = "the offline run"
		}
		if _, err := fmt.Fprintf(w, "sent %s %s: %d event(s), %d new\n", what, it.Run, it.Events, it.Added); err != nil {
			return err
		}
	}
	return nil
}

func newLedgerPushCommand() *cli.Command {
	return &cli.Command{
		Name:  "push",
		Usage: "copy a local SQLite ledger (this data home's, or the one in --from DIR) into the ledger in use; safe to repeat",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "copy the ledger of the data home `DIR` (default: this one)"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object (see docs/json.md)"},
		},
		Action: func(c *cli.Context) error {
			env, err := newLedgerCLIEnv(c)
			if err != nil {
				return err
			}
			return runLedgerPush(c.Context, env, c.String("ledger"), c.String("from"), c.Bool("json"))
		},
	}
}

func runLedgerPush(ctx context.Context, env ledgerCLIEnv, flag, from string, asJSON bool) error {
	w, _, err := ledger.Choose(env.getenv, flag)
	if err != nil {
		return usageError{err}
	}
	src, err := openPushSource(ctx, w, from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := ledger.Open(ctx, w)
	if err != nil {
		return err
	}
	defer dst.Close()
	if dst.Location() == src.Location() {
		return usageError{fmt.Errorf("the ledger in use is %s itself: nothing to push to; choose the shared ledger with --ledger, AI_MEMORY_LEDGER or the config file (docs/shared-ledger.md)", src.Location())}
	}
	c, err := ledgersync.Push(ctx, src, dst)
	if perr := printPushed(env.out, c, ledger.HidePassword(dst.Location()), asJSON); perr != nil {
		return perr
	}
	return err
}

// openPushSource opens the local ledger of the data home from (default:
// this one), which must exist.
func openPushSource(ctx context.Context, w ledger.Where, from string) (ledger.Ledger, error) {
	home := w.Home
	if from != "" {
		home = from
	}
	src := ledger.Where{Home: home}
	ok, path, err := ledger.Exists(ctx, src)
	if err == nil && !ok {
		err = fmt.Errorf("no ledger to push: %s does not exist (--from names a data home, the directory holding ledger.db)", path)
	}
	if err != nil {
		return nil, usageError{err}
	}
	return ledger.Open(ctx, src)
}

func printPushed(w io.Writer, c ledgersync.Copied, to string, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(c)
	}
	_, err := fmt.Fprintf(w, "pushed %d workstream(s), %d run(s) and %d event(s) (%d new) to %s\n", c.Workstreams, c.Runs, c.Events, c.Added, to)
	if err == nil && c.Active > 0 {
		_, err = fmt.Fprintf(w, "left out %d run(s) still going and their events: push again when they have finished\n", c.Active)
	}
	return err
}
