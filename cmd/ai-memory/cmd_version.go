package main

import (
	"fmt"
	"runtime"

	"github.com/urfave/cli/v2"
)

func newVersionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the ai-memory version",
		Action: func(c *cli.Context) error {
			_, err := fmt.Fprintf(c.App.Writer, "ai-memory %s (%s, %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
}
