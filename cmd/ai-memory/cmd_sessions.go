package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/ai-memory/ai-memory/sessionindex"
	"github.com/urfave/cli/v2"
)

// sessionsDeps is what the sessions commands take from the outside world,
// injected so tests control the environment, clock and liveness evidence.
type sessionsDeps struct {
	getenv func(string) string
	getwd  func() (string, error)
	now    func() time.Time // nil: real clock
	// alive returns the liveness check used by `start` and a release func.
	alive func(ctx context.Context, getenv func(string) string, warn io.Writer) (func(runtime, nativeID string) bool, func())
}

func newSessionsCommand() *cli.Command {
	return newSessionsCommandWith(sessionsDeps{getenv: os.Getenv, getwd: os.Getwd, alive: sessLedgerAlive})
}

func newSessionsCommandWith(d sessionsDeps) *cli.Command {
	return &cli.Command{
		Name:  "sessions",
		Usage: "keep the project's agent session index (.agent-sessions/session-history.json)",
		Description: "A bounded, human-readable list of agent sessions in the project, compatible with\n" +
			"the track-agent-sessions skill. See docs/session-index.md.",
		Flags: []cli.Flag{sessProjectRootFlag()},
		Subcommands: []*cli.Command{
			sessionsStartCommand(d), sessionsEndCommand(d), sessionsReportCommand(d), sessionsListCommand(d),
			sessionsBindCommand(d), sessionsInterruptCommand(d), sessionsInstallCommand(d),
		},
	}
}

func sessionsStartCommand(d sessionsDeps) *cli.Command {
	return &cli.Command{
		Name:  "start",
		Usage: "register (or resume) this agent session and mark abandoned ones interrupted",
		Flags: sessCommonFlags(
			&cli.StringFlag{Name: "runtime", Usage: "agent `NAME` (default: detected from " + detectedFrom() + ")"},
			&cli.StringFlag{Name: "native-id", Usage: "the agent's own session `ID` (default: detected, else pending)"},
			&cli.StringFlag{Name: "focus", Usage: "one-line `TEXT` describing the task"},
			&cli.StringFlag{Name: "status", Value: sessionindex.StatusActive, Usage: "initial `STATUS` (only active)"},
		),
		Action: func(c *cli.Context) error {
			s, err := sessOpenStore(c, d)
			if err != nil {
				return err
			}
			rt, id := sessIdentity(c, d)
			alive, release := d.alive(c.Context, d.getenv, c.App.ErrWriter)
			defer release()
			s.Alive = alive
			res, err := s.Start(sessionindex.StartOptions{Runtime: rt, NativeID: id, Focus: c.String("focus"), Status: c.String("status")})
			if errors.Is(err, sessionindex.ErrRuntimeRequired) {
				return usageError{err}
			}
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return sessWriteJSON(c.App.Writer, sessStartJSON(res))
			}
			return sessPrintStart(c.App.Writer, s.Root, res)
		},
	}
}

func sessStartJSON(res sessionindex.StartResult) any {
	return map[string]any{
		"session": res.Session, "resumed": res.Resumed,
		"evicted": sessNonNil(res.Evicted), "interrupted": sessNonNil(res.Interrupted), "open": sessNonNil(res.Open),
		"latest_session": res.Index.LatestSession, "history_limit": res.Index.Limit(),
	}
}

func sessPrintStart(w io.Writer, root string, res sessionindex.StartResult) error {
	verb := "registered"
	if res.Resumed {
		verb = "resumed"
	}
	fmt.Fprintf(w, "Session %s %s: %s\n", res.Session.ID, verb, sessDescribe(res.Session))
	for _, r := range res.Interrupted {
		fmt.Fprintf(w, "Marked interrupted (no live ai-memory run holds it): %s\n", sessDescribe(r))
	}
	for _, r := range res.Open {
		why := "a live run holds it"
		if r.NativeSessionID == sessionindex.PendingID || r.NativeSessionID == "" || r.NativeSessionID == "unknown" {
			why = "native id not known, cannot check"
		}
		fmt.Fprintf(w, "Still open (%s; may be a parallel session): %s\n", why, sessDescribe(r))
	}
	for _, r := range res.Evicted {
		fmt.Fprintf(w, "Evicted from the history: %s\n", sessDescribe(r))
	}
	_, err := fmt.Fprintf(w, "Index: %s (%d records, limit %d)\n", sessionindex.Path(root), len(res.Index.Sessions), res.Index.Limit())
	return err
}

func sessionsEndCommand(d sessionsDeps) *cli.Command {
	return &cli.Command{
		Name:  "end",
		Usage: "mark this session ended (found by runtime + native id, or by --id)",
		Flags: sessCommonFlags(
			&cli.StringFlag{Name: "native-id", Usage: "the agent's own session `ID` (default: detected)"},
			&cli.StringFlag{Name: "runtime", Usage: "agent `NAME` (default: detected)"},
			&cli.StringFlag{Name: "id", Usage: "index session `ID`, for a session whose native id is still pending"},
		),
		Action: func(c *cli.Context) error {
			s, err := sessOpenStore(c, d)
			if err != nil {
				return err
			}
			var r sessionindex.Record
			if id := c.String("id"); id != "" {
				r, err = s.EndID(id)
			} else {
				rt, nid := sessIdentity(c, d)
				if nid == "" {
					return usageError{errors.New("sessions end: cannot tell which session is yours; pass --native-id (and --runtime), or --id")}
				}
				r, err = s.End(rt, nid)
			}
			if err != nil {
				return err
			}
			return sessPrintRecord(c, r, "ended")
		},
	}
}

// sessPrintRecord reports the result of a single-record command.
func sessPrintRecord(c *cli.Context, r sessionindex.Record, what string) error {
	if c.Bool("json") {
		return sessWriteJSON(c.App.Writer, map[string]any{"session": r})
	}
	_, err := fmt.Fprintf(c.App.Writer, "Session %s %s: %s\n", r.ID, what, sessDescribe(r))
	return err
}

func sessionsReportCommand(d sessionsDeps) *cli.Command {
	return &cli.Command{
		Name:  "report",
		Usage: "show the current session and the full history",
		Flags: sessCommonFlags(),
		Action: func(c *cli.Context) error {
			s, err := sessOpenStore(c, d)
			if err != nil {
				return err
			}
			ix, err := s.Load()
			if err != nil {
				return err
			}
			cur := sessCurrentRecord(c, d, ix)
			if c.Bool("json") {
				return sessWriteJSON(c.App.Writer, sessReportJSON(s.Root, ix, cur))
			}
			return sessPrintReport(c.App.Writer, s.Root, ix, cur)
		},
	}
}

// sessCurrentRecord is the caller's own record when the environment identifies
// it, else the one latest_session points at; nil when neither exists.
func sessCurrentRecord(c *cli.Context, d sessionsDeps, ix sessionindex.Index) *sessionindex.Record {
	rt, id := sessIdentity(c, d)
	if nrt, err := sessionindex.NormalizeRuntime(rt); err == nil && id != "" && id != sessionindex.PendingID {
		for i := len(ix.Sessions) - 1; i >= 0; i-- {
			if r := ix.Sessions[i]; r.Runtime == nrt && r.NativeSessionID == id {
				return &r
			}
		}
	}
	if i := ix.Find(ix.LatestSession); i >= 0 {
		return &ix.Sessions[i]
	}
	return nil
}

func sessReportJSON(root string, ix sessionindex.Index, cur *sessionindex.Record) any {
	out := map[string]any{
		"file": sessionindex.Path(root), "latest_session": sessNilIfEmpty(ix.LatestSession), "history_limit": ix.Limit(),
		"sessions": sessNonNil(ix.Sessions), "current_session": nil, "current_status": nil,
	}
	if cur != nil {
		out["current_session"], out["current_status"] = cur.ID, cur.Status
	}
	return out
}

func sessNilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func sessPrintReport(w io.Writer, root string, ix sessionindex.Index, cur *sessionindex.Record) error {
	if cur != nil {
		fmt.Fprintf(w, "Current session: %s (%s)\n", cur.ID, cur.Status)
	} else {
		fmt.Fprintln(w, "Current session: none (register one with `ai-memory sessions start`)")
	}
	fmt.Fprintf(w, "Index: %s\n", sessionindex.Path(root))
	fmt.Fprintf(w, "History (%d records, limit %d, oldest first):\n", len(ix.Sessions), ix.Limit())
	if len(ix.Sessions) == 0 {
		_, err := fmt.Fprintln(w, "  (empty)")
		return err
	}
	return sessPrintTable(w, ix.Sessions)
}

func sessionsListCommand(d sessionsDeps) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list recorded sessions",
		Flags: sessCommonFlags(&cli.StringFlag{Name: "status", Usage: "only records with this `STATUS` (active, ended, interrupted)"}),
		Action: func(c *cli.Context) error {
			status := c.String("status")
			if status != "" && !sessValidStatus(status) {
				return usageError{fmt.Errorf("sessions list: unknown status %q; use active, ended or interrupted", status)}
			}
			s, err := sessOpenStore(c, d)
			if err != nil {
				return err
			}
			ix, err := s.Load()
			if err != nil {
				return err
			}
			var rs []sessionindex.Record
			for _, r := range ix.Sessions {
				if status == "" || r.Status == status {
					rs = append(rs, r)
				}
			}
			if c.Bool("json") {
				return sessWriteJSON(c.App.Writer, map[string]any{"sessions": sessNonNil(rs)})
			}
			return sessPrintTable(c.App.Writer, rs)
		},
	}
}

func sessionsBindCommand(d sessionsDeps) *cli.Command {
	return &cli.Command{
		Name:  "bind-id",
		Usage: "replace a pending native id with the real one",
		Flags: sessCommonFlags(
			&cli.StringFlag{Name: "id", Usage: "index session `ID`"},
			&cli.StringFlag{Name: "native-id", Usage: "the agent's real session `ID`"},
		),
		Action: func(c *cli.Context) error {
			if err := sessRequireFlags(c, "id", "native-id"); err != nil {
				return err
			}
			s, err := sessOpenStore(c, d)
			if err != nil {
				return err
			}
			r, err := s.Bind(c.String("id"), c.String("native-id"))
			if err != nil {
				return err
			}
			return sessPrintRecord(c, r, "bound")
		},
	}
}

func sessionsInterruptCommand(d sessionsDeps) *cli.Command {
	return &cli.Command{
		Name:  "interrupt",
		Usage: "mark another session interrupted (only with evidence it is gone, or the user's word)",
		Flags: sessCommonFlags(&cli.StringFlag{Name: "id", Usage: "index session `ID`"}),
		Action: func(c *cli.Context) error {
			if err := sessRequireFlags(c, "id"); err != nil {
				return err
			}
			s, err := sessOpenStore(c, d)
			if err != nil {
				return err
			}
			r, err := s.Interrupt(c.String("id"))
			if err != nil {
				return err
			}
			return sessPrintRecord(c, r, "interrupted")
		},
	}
}

func sessionsInstallCommand(d sessionsDeps) *cli.Command {
	return &cli.Command{
		Name:  "install",
		Usage: "add the session-tracking section to AGENTS.md and the track-agent-sessions skill",
		Flags: []cli.Flag{
			sessProjectRootFlag(),
			&cli.StringFlag{Name: "target", Usage: "project `DIR` to install into (default: the project root)"},
			&cli.BoolFlag{Name: "upgrade", Usage: "refresh an installed skill from this ai-memory"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the plan and write nothing"},
		},
		Action: func(c *cli.Context) error {
			target := c.String("target")
			if target == "" {
				root, err := sessProjectRoot(c, d)
				if err != nil {
					return err
				}
				target = root
			}
			return sessionindex.Install(sessionindex.InstallOptions{Target: target, Upgrade: c.Bool("upgrade"), DryRun: c.Bool("dry-run")}, c.App.Writer)
		},
	}
}
