package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/urfave/cli/v2"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// stdio carries the process streams so that commands never touch os.Std* directly.
type stdio struct {
	in       *os.File
	out, err io.Writer
}

// outFile and errFile return the streams as files when they are (the
// launcher needs real descriptors for the agent), else the process's own.
func (s stdio) outFile() *os.File { return fileOr(s.out, os.Stdout) }
func (s stdio) errFile() *os.File { return fileOr(s.err, os.Stderr) }

func fileOr(w io.Writer, def *os.File) *os.File {
	if f, ok := w.(*os.File); ok {
		return f
	}
	return def
}

// run builds the application, runs it and maps the outcome to an exit code.
// It is the only function main calls.
func run(args []string, io stdio) int {
	app := newApp(io)
	err := app.Run(args)
	return exitCode(cliError(err), io.err)
}

func newApp(io stdio) *cli.App {
	app := &cli.App{
		Name:                 "ai-memory",
		Usage:                "one memory for all your coding agents",
		Version:              version,
		Reader:               io.in,
		Writer:               io.out,
		ErrWriter:            io.err,
		HideVersion:          true,
		EnableBashCompletion: false,
		// Never let urfave/cli call os.Exit: deferred terminal restores and
		// lease releases must run. exit.go maps errors to codes.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return usageError{err}
		},
		Flags:  []cli.Flag{&cli.StringFlag{Name: "ledger", Usage: "use the ledger at `WHERE` (local, /path/to/ledger.db or postgres://…) for this command; overrides AI_MEMORY_LEDGER and the config file (docs/shared-ledger.md)"}},
		Before: applyLedgerFlag,
	}
	app.Commands = []*cli.Command{
		newRunCommand(io),
		newWorkstreamsCommand(),
		newWorkstreamSearchCommand(),
		newImportCommand(io),
		newHandoffCommand(io),
		newVersionCommand(),
		newSessionsCommand(),
		newLedgerCommand(),
		newHookCommand(),
		newUICommand(io),
		newLogCommand(io),
		newDoctorCommand(),
		newMCPCommand(),
		newCompletionCommand(),
		newCompleteCommand(),
	}
	for _, c := range app.Commands {
		if c.Name != "version" {
			c.Before = func(*cli.Context) error { return checkDataHome(os.Getenv) }
		}
	}
	return app
}

// applyLedgerFlag checks --ledger and exports it as AI_MEMORY_LEDGER, so
// that every layer that picks the ledger (ledger.DefaultWhere) and every
// process the command starts (the agent's hooks and MCP server) uses it.
func applyLedgerFlag(c *cli.Context) error {
	v := c.String("ledger")
	if !c.IsSet("ledger") {
		return nil
	}
	if strings.TrimSpace(v) == "" {
		return usageError{fmt.Errorf("--ledger needs a value: local, an absolute path to a SQLite ledger file, or a URL such as postgres://HOST/DB")}
	}
	if _, _, err := ledger.Choose(os.Getenv, v); err != nil {
		return usageError{err}
	}
	return os.Setenv("AI_MEMORY_LEDGER", v)
}

// checkDataHome refuses a relative AI_MEMORY_HOME before any command uses
// it: resolved against each command's working directory it would put a
// ledger inside the repository, and a different one in every directory.
func checkDataHome(getenv func(string) string) error {
	h := strings.TrimSpace(getenv("AI_MEMORY_HOME"))
	if h == "" || filepath.IsAbs(h) {
		return nil
	}
	return usageError{fmt.Errorf("AI_MEMORY_HOME=%s is a relative path; set it to an absolute one (for example AI_MEMORY_HOME=\"$HOME/.local/share/ai-memory\") or unset it", h)}
}
