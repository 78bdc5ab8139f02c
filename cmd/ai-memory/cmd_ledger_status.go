package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/urfave/cli/v2"
)

// ledgerStatus is `ai-memory ledger status` (docs/json.md has the JSON).
type ledgerStatus struct {
	Location  string `json:"location"`
	Backend   string `json:"backend"`
	ChosenBy  string `json:"chosen_by"`
	Reachable bool   `json:"reachable"`
	Created   bool   `json:"created"`
	Schema    int    `json:"schema_version"`
	Error     string `json:"error,omitempty"`
	DataHome  string `json:"data_home"`
	// Offline: runs use the data home's own ledger instead (AI_MEMORY_OFFLINE
	// or the config file's offline).
	Offline bool `json:"offline"`
}

// statusTimeout bounds the reachability check, so status answers even
// when a server never replies.
const statusTimeout = 10 * time.Second

func newLedgerStatusCommand() *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "say which ledger is in use, who chose it, whether it is reachable and its schema version (exit 69 when unreachable)",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print one JSON object (see docs/json.md)"}},
		Action: func(c *cli.Context) error {
			env, err := newLedgerCLIEnv(c)
			if err != nil {
				return err
			}
			st, err := checkLedger(c.Context, env.getenv, c.String("ledger"))
			if perr := printLedgerStatus(env.out, st, c.Bool("json")); perr != nil {
				return perr
			}
			return err
		},
	}
}

// checkLedger fills a status without creating or changing anything. Its
// error says why the ledger could not be checked (already printed in the
// status; still returned for the exit code).
func checkLedger(ctx context.Context, getenv func(string) string, flag string) (ledgerStatus, error) {
	w, src, err := ledger.Choose(getenv, flag)
	if err != nil {
		return ledgerStatus{}, usageError{err}
	}
	off, err := ledger.Offline(getenv)
	if err != nil {
		return ledgerStatus{}, usageError{err}
	}
	st := ledgerStatus{Location: ledger.HidePassword(w.Location), Backend: ledger.Backend(w.Location), ChosenBy: string(src), DataHome: w.Home, Offline: off}
	ctx, cancel := context.WithTimeout(ctx, statusTimeout)
	defer cancel()
	ok, desc, err := ledger.Exists(ctx, w)
	if desc != "" {
		st.Location = desc
	}
	if err == nil && ok {
		err = readSchema(ctx, w, &st)
	}
	st.Reachable, st.Created = err == nil, ok && err == nil
	if err != nil {
		st.Error = err.Error()
		return st, unreachable(st.Location, err)
	}
	return st, nil
}

func readSchema(ctx context.Context, w ledger.Where, st *ledgerStatus) error {
	l, err := ledger.OpenForCheck(ctx, w)
	if err != nil {
		return err
	}
	defer l.Close()
	st.Schema = l.SchemaVersion()
	return nil
}

// unreachable is the error of a ledger that could not be checked: exit 69
// for one that cannot be reached (errors.Is ledger.ErrUnavailable).
func unreachable(location string, err error) error {
	if errors.Is(err, ledger.ErrUnavailable) {
		return fmt.Errorf("ledger %s is unreachable: %w; check the server and the connection string (`ai-memory run --offline` works without it)", location, err)
	}
	return fmt.Errorf("ledger %s cannot be read: %w", location, err)
}

func printLedgerStatus(w io.Writer, st ledgerStatus, asJSON bool) error {
	if st.DataHome == "" {
		return nil // the choice itself failed: nothing to show
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	}
	reach, schema := "yes", fmt.Sprint(st.Schema)
	switch {
	case !st.Reachable:
		reach, schema = "no: "+st.Error, "unknown"
	case !st.Created:
		reach, schema = "yes (no ledger yet: the first `ai-memory run` creates it)", "none yet"
	}
	_, err := fmt.Fprintf(w, "ledger:     %s\nbackend:    %s\nchosen by:  %s\nreachable:  %s\nschema:     %s\ndata home:  %s\n",
		st.Location, st.Backend, st.ChosenBy, reach, schema, st.DataHome)
	if err == nil && st.Offline {
		_, err = fmt.Fprintf(w, "offline:    yes: runs use this data home's own ledger; `ai-memory ledger sync` sends them to the one above\n")
	}
	return err
}
