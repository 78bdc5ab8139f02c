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

// run builds the application, runs it and maps the outcome to an exit code.
// It is the only function main calls.
func run(args []string, io stdio) int {
	app := newApp(io)
	err := app.Run(args)
	return exitCode(err, io.err)
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
		newVersionCommand(),
	}
	return app
}
