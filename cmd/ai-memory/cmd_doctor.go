package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/repo"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

// check is one line of `ai-memory doctor` (docs/json.md has the JSON).
type check struct {
	Name    string         `json:"check"`
	Status  string         `json:"status"`
	Harness string         `json:"harness,omitempty"`
	Detail  string         `json:"detail"`
	Data    map[string]any `json:"data,omitempty"`
	level   harness.Level
}

// newCheck makes a check of level l.
func newCheck(l harness.Level, name, detail string, data map[string]any) check {
	return check{Name: name, Status: l.String(), Detail: detail, Data: data, level: l}
}

// doctorEnv is what doctor reads from the outside world.
type doctorEnv struct {
	getenv       func(string) string
	home         string
	cwd, project string
	now          time.Time
	// probeTimeout bounds each `<cli> --version`.
	probeTimeout time.Duration
}

// doctorProbeTimeout bounds a version probe. OpenCode 1.18.33 spends 3
// CPU-seconds on --version, 13-16 s wall on a 2-core machine at load 20;
// 10 s covers a normally loaded machine, and a CLI that needs longer is
// reported as not answering rather than holding doctor.
const doctorProbeTimeout = 10 * time.Second

func newDoctorCommand() *cli.Command {
	return &cli.Command{
		Name:  "doctor",
		Usage: "check the harnesses, the ledger and this project's session index: one line per check, exit 1 when something is broken",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print one JSON object (see docs/json.md)"}},
		Action: func(c *cli.Context) error {
			if c.Args().Len() > 0 {
				return usageError{fmt.Errorf("doctor takes no arguments; see: ai-memory doctor --help")}
			}
			env, err := newDoctorEnv()
			if err != nil {
				return err
			}
			checks := runDoctor(c.Context, env)
			if c.Bool("json") {
				err = encodeJSONArray(c.App.Writer, doctorJSON{OK: doctorFailures(checks) == 0, Checks: checks})
			} else {
				err = printDoctor(c.App.Writer, checks, colourOn(c.App.Writer, os.Getenv))
			}
			if err != nil {
				return err
			}
			if n := doctorFailures(checks); n > 0 {
				return fmt.Errorf("doctor: %s failed", plural(int64(n), "check"))
			}
			return nil
		},
	}
}

// newDoctorEnv reads the process environment and the project root (the
// git worktree top level, else the current directory).
func newDoctorEnv() (doctorEnv, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return doctorEnv{}, fmt.Errorf("read the current directory: %w", err)
	}
	home, _ := os.UserHomeDir()
	env := doctorEnv{getenv: os.Getenv, home: home, cwd: cwd, project: cwd, now: time.Now(), probeTimeout: doctorProbeTimeout}
	if id, err := repo.Identify(cwd); err == nil && id.Git {
		env.project = id.Root
	}
	return env, nil
}

// runDoctor runs every check, the harnesses' and the ledger's at once (a
// version probe may take seconds), and returns them in report order:
// harnesses in registry order, then the ledger, then the session index.
func runDoctor(ctx context.Context, env doctorEnv) []check {
	all := harness.All()
	groups := make([][]check, len(all)+1)
	var wg sync.WaitGroup
	for i, d := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			groups[i] = harnessChecks(ctx, env, d)
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		groups[len(all)] = ledgerChecks(ctx, env)
	}()
	wg.Wait()
	var out []check
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

type doctorJSON struct {
	OK     bool    `json:"ok"`
	Checks []check `json:"checks"`
}

func doctorFailures(cs []check) int {
	n := 0
	for _, c := range cs {
		if c.level == harness.LevelFail {
			n++
		}
	}
	return n
}

// doctorLabels are the status words of the text report, FAIL in capitals
// so that it stands out without colours.
var doctorLabels = map[harness.Level]struct{ word, colour string }{
	harness.LevelOK:   {"ok", "\x1b[32m"},
	harness.LevelInfo: {"info", ansiDim},
	harness.LevelWarn: {"warn", "\x1b[33m"},
	harness.LevelFail: {"FAIL", "\x1b[31;1m"},
}

// printDoctor writes `STATUS  CHECK  DETAIL`, the check names aligned.
func printDoctor(w io.Writer, cs []check, colour bool) error {
	width := 0
	for _, c := range cs {
		width = max(width, len(c.Name))
	}
	for _, c := range cs {
		l := doctorLabels[c.level]
		word := fmt.Sprintf("%-4s", l.word)
		if colour {
			word = l.colour + word + ansiReset
		}
		if _, err := fmt.Fprintf(w, "%s  %-*s  %s\n", word, width, c.Name, oneLine(c.Detail)); err != nil {
			return err
		}
	}
	return nil
}

// oneLine keeps a detail (an error from below may span lines) on its line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// colourOn reports whether w is a terminal that wants colours.
func colourOn(w io.Writer, getenv func(string) string) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd())) && getenv("NO_COLOR") == ""
}
