package main

import (
	"io"
	"os"

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
		newCompletionCommand(),
		newCompleteCommand(),
	}
	return app
}
