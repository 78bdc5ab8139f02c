// Command synthgen writes a seeded synthetic Claude Code session where
// Claude Code would keep it: <store>/projects/<folded cwd>/<session>.jsonl,
// and prints its path. scripts/bench-import.sh and launcher's BenchmarkImport
// use it (launcher cannot import transcript/internal/synth directly).
//
// Usage: synthgen -store DIR -cwd DIR [-session ID] [-mb N] [-seed N]
//
// The file is written under a temporary name and renamed when complete, so
// an interrupted run never leaves a truncated file behind for a cache.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ai-memory/ai-memory/transcript"
	"github.com/ai-memory/ai-memory/transcript/internal/synth"
)

// DefaultSession is the session id used when -session is not given.
const defaultSession = "5e1f0c2a-b3d4-4e5f-8a6b-7c8d9e0f1a2b"

func main() {
	store := flag.String("store", "", "Claude Code store root (what $CLAUDE_CONFIG_DIR or ~/.claude would be)")
	cwd := flag.String("cwd", "", "working directory recorded in the session (absolute)")
	session := flag.String("session", defaultSession, "session id (the file name)")
	mb := flag.Int64("mb", 200, "size in MiB")
	seed := flag.Int64("seed", synth.DefaultSeed, "random seed")
	flag.Parse()
	if *store == "" || !filepath.IsAbs(*cwd) || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: synthgen -store DIR -cwd ABSOLUTE_DIR [-session ID] [-mb N] [-seed N]")
		os.Exit(2)
	}
	path, err := write(*store, synth.Claude{Seed: *seed, SessionID: *session, Cwd: *cwd}, *mb<<20)
	if err != nil {
		fmt.Fprintln(os.Stderr, "synthgen:", err)
		os.Exit(1)
	}
	fmt.Println(path)
}

func write(store string, c synth.Claude, size int64) (string, error) {
	dir := transcript.ClaudeProjectDir(store, c.Cwd)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create project directory: %w", err)
	}
	path := filepath.Join(dir, c.SessionID+".jsonl")
	tmp := path + ".partial"
	if err := c.WriteFile(tmp, size); err != nil {
		os.Remove(tmp)
		return "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("publish synthetic session: %w", err)
	}
	return path, nil
}
