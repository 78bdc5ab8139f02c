//go:build unix

package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// config is one benchmark invocation.
type config struct {
	aiMemory string
	runs     int
	warmup   int
	pty      bool
	ledger   string // AI_MEMORY_LEDGER of the runs ("": the sandbox's SQLite)
	commit   bool   // the sandbox repository has a commit
}

func bench(args []string) int {
	fs := flag.NewFlagSet("launchbench", flag.ContinueOnError)
	var c config
	fs.StringVar(&c.aiMemory, "ai-memory", "", "path of the ai-memory binary to measure")
	fs.IntVar(&c.runs, "runs", 31, "measured runs of each variant (interleaved)")
	fs.IntVar(&c.warmup, "warmup", 3, "unmeasured runs of each variant first (the first creates the ledger)")
	fs.BoolVar(&c.pty, "pty", true, "give both variants a terminal (as when a user types the command)")
	fs.StringVar(&c.ledger, "ledger", "", "the ledger of the measured runs (AI_MEMORY_LEDGER), e.g. a postgres:// URL; default the sandbox data home's SQLite")
	fs.BoolVar(&c.commit, "commit", false, "give the sandbox repository a first commit (default: a fresh `git init`, whose identity stays provisional until its first commit)")
	if err := fs.Parse(args); err != nil || c.aiMemory == "" || c.runs < 1 || fs.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: launchbench -ai-memory PATH [-runs N] [-warmup N] [-pty=false] [-ledger URL] [-commit]")
		return 2
	}
	if err := runBench(c); err != nil {
		fmt.Fprintln(os.Stderr, "launchbench:", err)
		return 1
	}
	return 0
}

func runBench(c config) error {
	aim, err := filepath.Abs(c.aiMemory)
	if err != nil {
		return fmt.Errorf("locate ai-memory: %w", err)
	}
	sb, err := newSandbox(c.ledger, c.commit)
	if err != nil {
		return err
	}
	defer os.RemoveAll(sb.root)
	variants := []variant{
		{name: "claude -p x (direct)", argv: []string{sb.claude, "-p", "x"}},
		{name: "ai-memory run claude -p x", argv: []string{aim, "run", "claude", "-p", "x"}},
	}
	first, err := sb.run(variants[1].argv, c.pty) // creates the ledger: reported apart
	if err != nil {
		return err
	}
	res, err := interleave(sb, variants, c)
	if err != nil {
		return err
	}
	report(os.Stdout, c, first, res)
	return nil
}

// sandbox is a throwaway git checkout with its own HOME (the fake agent's
// store), AI_MEMORY_HOME and a PATH that finds the fake claude first.
type sandbox struct {
	root, repo, claude, stamp string
	env                       []string
}

func newSandbox(ledger string, commit bool) (*sandbox, error) {
	root, err := os.MkdirTemp("", "launchbench-")
	if err != nil {
		return nil, fmt.Errorf("create sandbox: %w", err)
	}
	if root, err = filepath.EvalSymlinks(root); err != nil {
		return nil, fmt.Errorf("resolve sandbox: %w", err)
	}
	sb := &sandbox{root: root, repo: filepath.Join(root, "repo"), claude: filepath.Join(root, "bin", "claude"),
		stamp: filepath.Join(root, "stamp")}
	if err := sb.populate(ledger, commit); err != nil {
		os.RemoveAll(root)
		return nil, err
	}
	return sb, nil
}

func (sb *sandbox) populate(ledger string, commit bool) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("locate launchbench: %w", err)
	}
	for _, d := range []string{"bin", "home", "data"} {
		if err := os.MkdirAll(filepath.Join(sb.root, d), 0o700); err != nil {
			return fmt.Errorf("create sandbox: %w", err)
		}
	}
	if err := os.Symlink(self, sb.claude); err != nil {
		return fmt.Errorf("install fake claude: %w", err)
	}
	if out, err := exec.Command("git", "init", "-q", sb.repo).CombinedOutput(); err != nil {
		return fmt.Errorf("git init: %v: %s", err, out)
	}
	if commit {
		c := exec.Command("git", "-c", "user.name=launchbench", "-c", "user.email=launchbench@localhost",
			"-c", "commit.gpgsign=false", "commit", "-q", "--allow-empty", "-m", "first")
		c.Dir = sb.repo
		if out, err := c.CombinedOutput(); err != nil {
			return fmt.Errorf("git commit: %v: %s", err, out)
		}
	}
	set := map[string]string{
		"HOME": filepath.Join(sb.root, "home"), "AI_MEMORY_HOME": filepath.Join(sb.root, "data"),
		"PATH":   filepath.Join(sb.root, "bin") + string(os.PathListSeparator) + os.Getenv("PATH"),
		stampEnv: sb.stamp,
	}
	if ledger != "" {
		set["AI_MEMORY_LEDGER"] = ledger
	}
	sb.env = sandboxEnv(os.Environ(), set)
	return nil
}

// sandboxEnv is base with set applied and every variable that could point
// the launcher or the fake elsewhere (an enclosing managed run, store
// overrides, FAKE_* knobs) removed.
func sandboxEnv(base []string, set map[string]string) []string {
	var out []string
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		_, replaced := set[k]
		if replaced || strings.HasPrefix(k, "AI_MEMORY_") || strings.HasPrefix(k, "FAKE_") ||
			k == "CLAUDE_CONFIG_DIR" || k == "CODEX_HOME" || k == "XDG_DATA_HOME" {
			continue
		}
		out = append(out, kv)
	}
	for k, v := range set {
		out = append(out, k+"="+v)
	}
	return out
}
