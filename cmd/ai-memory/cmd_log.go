package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/history"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

type logOpts struct {
	WorkstreamID  string
	Verbose, JSON bool
	NoPager       bool
}

func newLogCommand(io stdio) *cli.Command {
	return &cli.Command{
		Name:  "log",
		Usage: "show this worktree's workstream timeline: one line per session, newest first (-v adds events)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "workstream-id", Usage: "workstream to show (default: $AI_MEMORY_WORKSTREAM_ID, else this worktree's selected one)"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "list each session's events under it"},
			&cli.BoolFlag{Name: "json", Usage: "print a JSON array of sessions (see docs/json.md)"},
			&cli.BoolFlag{Name: "no-pager", Usage: "never page the output"},
		},
		Action: func(c *cli.Context) error {
			if c.Args().Len() > 0 {
				return usageError{fmt.Errorf("log takes no arguments; pick a workstream with --workstream-id")}
			}
			env, err := newLedgerCLIEnv(c)
			if err != nil {
				return err
			}
			o := logOpts{WorkstreamID: c.String("workstream-id"), Verbose: c.Bool("verbose"), JSON: c.Bool("json"), NoPager: c.Bool("no-pager")}
			return runLog(c.Context, env, o)
		},
	}
}

// sessionJSON is one element of `log --json`: the history.Session fields
// plus, with -v, its events in the workstream-search event shape.
type sessionJSON struct {
	history.Session
	Items []eventJSON `json:"items,omitempty"`
}

func runLog(ctx context.Context, env ledgerCLIEnv, o logOpts) error {
	t, db, err := loadTimeline(ctx, env, o.WorkstreamID)
	if db != nil {
		defer db.Close()
	}
	if err != nil {
		return err
	}
	if o.JSON {
		return logJSON(ctx, env.out, db, t, o.Verbose)
	}
	if len(t.Sessions) == 0 {
		_, err := fmt.Fprintf(env.out, "No sessions yet; %s starts one.\n", runSuggestion())
		return err
	}
	out, colour, done := pager(env.out, o.NoPager, env.getenv)
	err = printLog(ctx, out, db, t, o.Verbose, colour)
	if errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) {
		err = nil // the pager was quit before the end
	}
	if derr := done(); err == nil {
		err = derr
	}
	return err
}

// loadTimeline is an empty timeline (and no error) when there is no ledger
// or no workstream yet: nothing to show is not a failure.
func loadTimeline(ctx context.Context, env ledgerCLIEnv, flag string) (history.Timeline, ledger.Ledger, error) {
	db, err := openLedgerIfExists(ctx, env)
	if err != nil || db == nil {
		return history.Timeline{}, nil, err
	}
	wsID, err := searchWorkstreamID(ctx, db, env, flag)
	if err != nil && strings.TrimSpace(flag) == "" && env.getenv("AI_MEMORY_WORKSTREAM_ID") == "" {
		return history.Timeline{}, db, nil // this worktree has no workstream yet
	}
	if err != nil {
		return history.Timeline{}, db, err
	}
	t, err := history.Load(ctx, db, wsID, env.now, nil)
	return t, db, err
}

func logJSON(ctx context.Context, w io.Writer, db ledger.Ledger, t history.Timeline, verbose bool) error {
	out := make([]sessionJSON, 0, len(t.Sessions))
	for i := len(t.Sessions) - 1; i >= 0; i-- {
		s := sessionJSON{Session: t.Sessions[i]}
		if verbose && s.Events > 0 {
			evs, err := db.EventsAfter(ctx, t.Workstream.ID, s.FirstSequence-1, s.LastSequence, 0)
			if err != nil {
				return err
			}
			ledger.SortConversation(evs)
			s.Items = toEventJSON(evs)
		}
		out = append(out, s)
	}
	return encodeJSONArray(w, out)
}

// ANSI styles, used only when the output is a terminal.
const (
	ansiDim   = "\x1b[2m"
	ansiBold  = "\x1b[1m"
	ansiReset = "\x1b[0m"
)

// harnessPalette colours harnesses by their place in the registry.
var harnessPalette = []string{"\x1b[33m", "\x1b[36m", "\x1b[35m", "\x1b[32m", "\x1b[34m"}

// harnessColour is the colour of a registered harness, "" for others.
func harnessColour(name string) string {
	for i, d := range harness.All() {
		if d.Name == name {
			return harnessPalette[i%len(harnessPalette)]
		}
	}
	return ""
}

// logChunk is how many events -v reads at a time.
const logChunk = 1000

func printLog(ctx context.Context, w io.Writer, db ledger.Ledger, t history.Timeline, verbose, colour bool) error {
	paint := func(style, s string) string {
		if !colour || style == "" {
			return s
		}
		return style + s + ansiReset
	}
	for i := len(t.Sessions) - 1; i >= 0; i-- {
		s := t.Sessions[i]
		prompt := history.OneLine(s.FirstPrompt, 100)
		if prompt == "" {
			prompt = "(no prompt)"
		}
		_, err := fmt.Fprintf(w, "%s  %s  %s  %s  %s  %s\n", paint(ansiDim, s.StartedAt.Local().Format("2006-01-02 15:04")),
			paint(harnessColour(s.Harness), fmt.Sprintf("%-6s", s.Harness)), s.Machine, history.FormatDuration(s.Duration()),
			plural(s.Events, "event"), paint(ansiBold, prompt))
		if err != nil {
			return err
		}
		if verbose {
			if err := printSessionEvents(ctx, w, db, t.Workstream.ID, s, paint); err != nil {
				return err
			}
		}
	}
	return nil
}

func printSessionEvents(ctx context.Context, w io.Writer, db ledger.Ledger, wsID string, s history.Session, paint func(string, string) string) error {
	if s.Handoff != nil {
		state := "not confirmed"
		if s.Handoff.Confirmed {
			state = "confirmed"
		}
		fmt.Fprintf(w, "    %s\n", paint(ansiDim, fmt.Sprintf("handoff: events #%d-#%d (%d), %s", s.Handoff.After+1, s.Handoff.Through, s.Handoff.Events, state)))
	}
	for after := s.FirstSequence - 1; s.Events > 0 && after < s.LastSequence; {
		evs, err := db.EventsAfter(ctx, wsID, after, s.LastSequence, logChunk)
		if err != nil || len(evs) == 0 {
			return err
		}
		next := evs[len(evs)-1].Sequence // the page cursor, before sorting
		ledger.SortConversation(evs)
		for _, e := range evs {
			label := e.Role
			if e.Kind != ledger.KindMessage {
				label = string(e.Kind)
			}
			if _, err := fmt.Fprintf(w, "    %s %s %s\n", paint(ansiDim, fmt.Sprintf("#%d", e.Sequence)), label, history.OneLine(e.Content, 160)); err != nil {
				return err
			}
		}
		after = next
	}
	return nil
}

func plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// pager returns where to write, whether to colour, and a function that
// waits for the pager. Like git log: only on a terminal, $PAGER (else
// `less -FRX`, which exits at once when the output fits); colours only on a
// terminal and not with NO_COLOR.
func pager(w io.Writer, noPager bool, getenv func(string) string) (io.Writer, bool, func() error) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return w, false, func() error { return nil }
	}
	colour := getenv("NO_COLOR") == ""
	cmdline := getenv("PAGER")
	if noPager || cmdline == "cat" || runtime.GOOS == "windows" {
		return w, colour, func() error { return nil }
	}
	var cmd *exec.Cmd
	if cmdline == "" {
		cmd = exec.Command("less", "-FRX")
	} else {
		cmd = exec.Command("sh", "-c", cmdline)
	}
	cmd.Stdout, cmd.Stderr = f, os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil || cmd.Start() != nil {
		return w, colour, func() error { return nil }
	}
	return in, colour, func() error {
		in.Close()
		cmd.Wait() // the reader quitting early is not an error
		return nil
	}
}
