// Command relaybench measures agentproc against the programs it wraps.
//
//	relaybench run [-pty=false] -- PROG [ARGS...]   Start+Wait one child, exit with its status
//	relaybench bench [-runs N] [-mb M] [-tput-runs K] interleaved timings (see bench.go)
//
// scripts/bench-pty.sh builds it and runs the bench; the numbers go into the README.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"

	"github.com/ai-memory/ai-memory/agentproc"
)

func main() {
	os.Exit(dispatch(os.Args[1:]))
}

func dispatch(args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "run":
			return run(args[1:])
		case "bench":
			return bench(args[1:])
		}
	}
	fmt.Fprintln(os.Stderr, "usage: relaybench run [-pty=false] -- PROG [ARGS...] | relaybench bench [-runs N] [-mb M]")
	return 2
}

// run is the launcher stand-in: the PTY is forced on by default so that it is exercised even
// when the benchmark's stdin is not a terminal.
func run(args []string) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	usePTY := fs.Bool("pty", true, "run the child under a PTY")
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 {
		return 2
	}
	path, err := exec.LookPath(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 127
	}
	p, err := agentproc.Start(agentproc.Spec{Path: path, Args: fs.Args()[1:], Stdin: os.Stdin,
		Stdout: os.Stdout, Stderr: os.Stderr, PTY: *usePTY})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 125
	}
	st, err := p.Wait()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 125
	}
	return st.Code
}
