package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/launcher"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/repo"
	"github.com/urfave/cli/v2"
)

// ledgerCLIEnv is what the ledger-reading commands take from the process.
type ledgerCLIEnv struct {
	getenv func(string) string
	cwd    string
	out    io.Writer
	now    time.Time
}

func newLedgerCLIEnv(c *cli.Context) (ledgerCLIEnv, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return ledgerCLIEnv{}, fmt.Errorf("read the current directory: %w", err)
	}
	return ledgerCLIEnv{getenv: os.Getenv, cwd: cwd, out: c.App.Writer, now: time.Now()}, nil
}

// openLedgerIfExists opens the ledger without creating one: read-only
// commands must not leave a data directory behind. nil means no ledger yet.
func openLedgerIfExists(_ context.Context, env ledgerCLIEnv) (ledger.Ledger, error) {
	return launcher.OpenExistingLedger(env.getenv)
}

// cwdScope is the workstream scope of the current directory in db (its
// portable identity on this machine, see launcher.ResolveScope).
func cwdScope(ctx context.Context, env ledgerCLIEnv, db ledger.Ledger) (ledger.Scope, error) {
	id, err := repo.Identify(env.cwd)
	if err != nil {
		return ledger.Scope{}, fmt.Errorf("identify this directory: %w", err)
	}
	return launcher.ResolveScope(ctx, db, id)
}

func newWorkstreamsCommand() *cli.Command {
	return &cli.Command{
		Name:  "workstreams",
		Usage: "list the workstreams of this worktree (newest selected first)",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print a JSON array (see docs/ledger.md)"}},
		Action: func(c *cli.Context) error {
			env, err := newLedgerCLIEnv(c)
			if err != nil {
				return err
			}
			return runWorkstreams(c.Context, env, c.Bool("json"))
		},
	}
}

// workstreamJSON is the stable JSON shape of one workstream (docs/ledger.md).
// It never carries paths or fingerprints.
type workstreamJSON struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Selected    bool     `json:"selected"`
	LastHarness string   `json:"last_harness"`
	Harnesses   []string `json:"harnesses"`
	Events      int64    `json:"events"`
	CreatedAt   string   `json:"created_at"`
	SelectedAt  string   `json:"selected_at"`
	UpdatedAt   string   `json:"updated_at"`
}

func runWorkstreams(ctx context.Context, env ledgerCLIEnv, asJSON bool) error {
	list, err := listWorkstreams(ctx, env)
	if err != nil {
		return err
	}
	if asJSON {
		return encodeJSONArray(env.out, toWorkstreamJSON(list))
	}
	if len(list) == 0 {
		_, err := fmt.Fprintf(env.out, "No workstreams in this worktree yet; %s creates one.\n", runSuggestion())
		return err
	}
	for _, w := range list {
		if err := printWorkstream(env.out, w, env.now); err != nil {
			return err
		}
	}
	return nil
}

func listWorkstreams(ctx context.Context, env ledgerCLIEnv) ([]ledger.WorkstreamSummary, error) {
	if _, err := repo.Identify(env.cwd); err != nil {
		return nil, fmt.Errorf("identify this directory: %w", err)
	}
	db, err := openLedgerIfExists(ctx, env)
	if err != nil || db == nil {
		return nil, err
	}
	defer db.Close()
	scope, err := cwdScope(ctx, env, db)
	if err != nil {
		return nil, err
	}
	return db.ListWorkstreams(ctx, scope)
}

func toWorkstreamJSON(list []ledger.WorkstreamSummary) []workstreamJSON {
	out := make([]workstreamJSON, 0, len(list))
	for _, w := range list {
		hs := w.Harnesses
		if hs == nil {
			hs = []string{}
		}
		out = append(out, workstreamJSON{ID: w.ID, Name: w.Name, Selected: w.Selected, LastHarness: w.LastHarness,
			Harnesses: hs, Events: w.Events, CreatedAt: wsTime(w.CreatedAt),
			SelectedAt: wsTime(w.SelectedAt), UpdatedAt: wsTime(w.UpdatedAt)})
	}
	return out
}

// printWorkstream renders "* name  <age>  [harnesses]" and an "id:" line.
func printWorkstream(w io.Writer, s ledger.WorkstreamSummary, now time.Time) error {
	mark := " "
	if s.Selected {
		mark = "*"
	}
	hs := ""
	if len(s.Harnesses) > 0 {
		hs = "  [" + strings.Join(s.Harnesses, ", ") + "]"
	}
	_, err := fmt.Fprintf(w, "%s %s  %s  %d event(s)%s\n    id: %s\n", mark, s.Name, wsAge(now, s.UpdatedAt), s.Events, hs, s.ID)
	return err
}

// wsAge renders how long ago t was, coarsely.
func wsAge(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
}

func wsTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func encodeJSONArray(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
