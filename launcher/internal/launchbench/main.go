//go:build unix

// Command launchbench measures what `ai-memory run` adds before the agent
// starts, against running the same fake harness directly.
//
//	launchbench -ai-memory PATH [-runs N] [-warmup N] [-pty=true]
//
// It is also the fake agent: run under the name "claude" (a symlink the
// benchmark puts first on PATH) it writes a CLOCK_MONOTONIC timestamp to
// $LAUNCHBENCH_STAMP as its first action, then behaves as the test suite's
// fake Claude Code (harness/harnesstest): it writes a real-shaped transcript
// and runs the SessionStart hook, so `ai-memory run` does its full work
// after the agent exits (settle, import, checkpoint, delivery).
//
// scripts/bench-launcher.sh builds and runs it; the numbers go into the README.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ai-memory/ai-memory/harness/harnesstest"
)

// stampEnv names the file the fake agent writes its start time to.
const stampEnv = "LAUNCHBENCH_STAMP"

func main() {
	if filepath.Base(os.Args[0]) == "claude" {
		os.Exit(fakeClaude())
	}
	os.Exit(bench(os.Args[1:]))
}

// fakeClaude records when the agent process started, runs the fake, and
// records when it is about to exit (in <stamp>.exit).
func fakeClaude() int {
	p := os.Getenv(stampEnv)
	if err := writeStamp(p); err != nil {
		fmt.Fprintln(os.Stderr, "fake claude:", err)
		return 1
	}
	code := harnesstest.FakeClaudeMain()
	if err := writeStamp(p + exitSuffix); err != nil {
		fmt.Fprintln(os.Stderr, "fake claude:", err)
		return 1
	}
	return code
}

// exitSuffix names the exit stamp next to the start stamp.
const exitSuffix = ".exit"

func writeStamp(path string) error {
	if path == "" || path == exitSuffix {
		return nil
	}
	if err := os.WriteFile(path, []byte(fmt.Sprint(int64(monotonic()))), 0o600); err != nil {
		return fmt.Errorf("write stamp: %w", err)
	}
	return nil
}
