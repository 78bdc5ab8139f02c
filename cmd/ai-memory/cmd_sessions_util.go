package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ai-memory/ai-memory/launcher"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/repo"
	"github.com/ai-memory/ai-memory/sessionindex"
	"github.com/urfave/cli/v2"
)

func sessProjectRootFlag() cli.Flag {
	return &cli.StringFlag{Name: "project-root", Usage: "project `DIR` (default: the git worktree of the current directory)"}
}

func sessJSONFlag() cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "print JSON instead of text"}
}

// sessCommonFlags adds the flags every sessions subcommand accepts.
func sessCommonFlags(flags ...cli.Flag) []cli.Flag {
	return append([]cli.Flag{sessProjectRootFlag(), sessJSONFlag()}, flags...)
}

// sessProjectRoot is --project-root from the subcommand or from `sessions`,
// else the git worktree top-level of cwd, else cwd.
func sessProjectRoot(c *cli.Context, d sessionsDeps) (string, error) {
	for _, cc := range c.Lineage() {
		for _, name := range cc.LocalFlagNames() {
			if name == "project-root" {
				return filepath.Abs(cc.String("project-root"))
			}
		}
	}
	cwd, err := d.getwd()
	if err != nil {
		return "", fmt.Errorf("find project root: %w", err)
	}
	// The same root the launcher uses: the worktree top-level, else cwd.
	if id, err := repo.Identify(cwd); err == nil && id.Git {
		return id.Root, nil
	}
	return cwd, nil
}

func sessOpenStore(c *cli.Context, d sessionsDeps) (*sessionindex.Store, error) {
	root, err := sessProjectRoot(c, d)
	if err != nil {
		return nil, err
	}
	return &sessionindex.Store{Root: root, Now: d.now, Warn: c.App.ErrWriter}, nil
}

// sessIdentity resolves runtime and native id from flags, falling back to the
// environment. A detected native id is only used for the detected runtime.
func sessIdentity(c *cli.Context, d sessionsDeps) (runtime, nativeID string) {
	rt, id := canonicalRuntime(c.String("runtime")), c.String("native-id")
	drt, did := detectRuntime(d.getenv)
	if rt == "" {
		rt = drt
	}
	if id == "" && sessSameRuntime(rt, drt) {
		id = did
	}
	return rt, id
}

func sessSameRuntime(a, b string) bool {
	na, errA := sessionindex.NormalizeRuntime(canonicalRuntime(a))
	nb, errB := sessionindex.NormalizeRuntime(canonicalRuntime(b))
	return errA == nil && errB == nil && na == nb
}

func sessWriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// sessNonNil makes empty lists print as [] rather than null in JSON.
func sessNonNil(rs []sessionindex.Record) []sessionindex.Record {
	if rs == nil {
		return []sessionindex.Record{}
	}
	return rs
}

// sessDescribe is the one-line human form of a record.
func sessDescribe(r sessionindex.Record) string {
	s := fmt.Sprintf("%s (%s, native id %s, %s", r.ID, r.Runtime, r.NativeSessionID, r.Status)
	if r.Focus != "" {
		s += fmt.Sprintf(", focus %q", r.Focus)
	}
	return s + ")"
}

// sessPrintTable writes records as an aligned table, oldest first.
func sessPrintTable(w io.Writer, rs []sessionindex.Record) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tRUNTIME\tNATIVE ID\tSTATUS\tSTARTED\tENDED\tFOCUS")
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Runtime, r.NativeSessionID, r.Status,
			sessFormatTime(&r.Started), sessFormatTime(r.Ended), r.Focus)
	}
	return tw.Flush()
}

func sessFormatTime(t *time.Time) string {
	if t == nil || t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

func sessValidStatus(s string) bool {
	switch s {
	case sessionindex.StatusActive, sessionindex.StatusEnded, sessionindex.StatusInterrupted:
		return true
	}
	return false
}

func sessRequireFlags(c *cli.Context, names ...string) error {
	var missing []string
	for _, n := range names {
		if strings.TrimSpace(c.String(n)) == "" {
			missing = append(missing, "--"+n)
		}
	}
	if len(missing) > 0 {
		return usageError{fmt.Errorf("sessions %s needs %s", c.Command.Name, strings.Join(missing, " and "))}
	}
	return nil
}

// sessLedgerAlive is the production liveness check: a session is alive when a
// live `ai-memory run` lease is bound to it. The ledger is opened lazily and
// only if it already exists (no ledger: nothing can be alive). When the
// ledger cannot be read, sessions count as alive: without evidence either
// way, a running session must not be marked interrupted.
func sessLedgerAlive(ctx context.Context, getenv func(string) string, warn io.Writer) (func(string, string) bool, func()) {
	var db ledger.Ledger
	var opened, broken bool
	alive := func(runtime, nativeID string) bool {
		if !opened {
			opened = true
			var err error
			if db, err = sessOpenExistingLedger(ctx, getenv); err != nil {
				broken = true
				fmt.Fprintf(warn, "ai-memory: cannot check live runs (%v); other active sessions are left active\n", err)
			}
		}
		if broken || db == nil {
			return broken
		}
		ok, err := db.LiveRunForSession(ctx, runtime, nativeID)
		if err != nil {
			fmt.Fprintf(warn, "ai-memory: cannot check session %s/%s (%v); leaving it active\n", runtime, nativeID, err)
			return true
		}
		return ok
	}
	return alive, func() {
		if db != nil {
			db.Close()
		}
	}
}

func sessOpenExistingLedger(_ context.Context, getenv func(string) string) (ledger.Ledger, error) {
	if _, err := ledger.DefaultHome(getenv); err != nil {
		return nil, nil // no data home: no ai-memory run can exist
	}
	return launcher.OpenExistingLedger(getenv)
}
