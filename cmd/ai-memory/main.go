// Command ai-memory keeps one searchable history of work across coding-agent CLIs.
package main

import "os"

func main() {
	os.Exit(run(os.Args, stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}))
}
