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
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print a JSON object (see docs/json.md)"}},
		Action: func(c *cli.Context) error {
			if c.Bool("json") {
				return encodeJSONArray(c.App.Writer, map[string]string{"version": version, "go": runtime.Version(), "os": runtime.GOOS, "arch": runtime.GOARCH})
			}
			_, err := fmt.Fprintf(c.App.Writer, "ai-memory %s (%s, %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
}
