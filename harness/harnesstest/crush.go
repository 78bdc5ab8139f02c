package harnesstest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// CrushVersion is the Crush release whose flags and store the fake follows
// (read in charmbracelet/crush's source; its npm package cannot install
// here).
const CrushVersion = "0.90.0"

// FakeCrushMain runs the fake Crush CLI on the process's argv and stdio and
// returns its exit code.
func FakeCrushMain() int {
	inv, err := osInvocation()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake crush:", err)
		return 1
	}
	return runCrush(inv)
}

func runCrush(inv invocation) int {
	k, err := readKnobs(inv.getenv)
	if err != nil {
		fmt.Fprintln(inv.stderr, "fake crush:", err)
		return 2
	}
	entry := logEntry{Harness: "crush"}
	code := crushMain(inv, k, &entry)
	if err := writeLog(inv, k, entry); err != nil {
		fmt.Fprintln(inv.stderr, "fake crush:", err)
		return 1
	}
	return finish(inv, k, code)
}

func crushMain(inv invocation, k knobs, entry *logEntry) int {
	a, err := parseCrushArgs(inv.args)
	switch {
	case err != nil:
		fmt.Fprintln(inv.stderr, "Error:", err)
		return 1
	case a.help:
		fmt.Fprintln(inv.stdout, "A glamorous, terminal-first AI assistant\n\nUsage:\n  crush [flags]\n  crush [command]")
		return 0
	case a.version:
		fmt.Fprintln(inv.stdout, "crush version v"+CrushVersion)
		return 0
	case a.utility:
		fmt.Fprintf(inv.stdout, "crush %s: nothing to do in the fake\n", a.sub)
		return 0
	}
	entry.MCP = crushMCP(inv.getenv)
	r := &crushRun{inv: inv, k: k, a: a}
	err = r.run()
	entry.Context, entry.SessionID = r.context, r.id
	if err != nil {
		fmt.Fprintln(inv.stderr, "Error:", err)
		return 1
	}
	return 0
}

// crushRun is one session of the fake.
type crushRun struct {
	inv     invocation
	k       knobs
	a       crushArgs
	st      *crushStore
	id      string
	context string
}

func (r *crushRun) run() error {
	print := r.a.sub == "run"
	if !print && !r.inv.stdinTTY {
		return errors.New("crush needs a terminal for its TUI; use crush run")
	}
	if print && strings.TrimSpace(r.a.prompt) == "" {
		return errors.New("no prompt provided")
	}
	ctx, err := crushContext(r.inv.getenv)
	if err != nil {
		return err
	}
	r.context = ctx
	cwd := r.inv.cwd
	if r.a.cwd != "" {
		cwd = r.a.cwd
	}
	data := filepath.Join(cwd, ".crush")
	if r.a.data != "" {
		data = r.a.data
	}
	if r.st, err = openCrushStore(r.inv, cwd, data); err != nil {
		return err
	}
	defer r.st.close()
	if r.id, err = r.st.selectSession(r.a); err != nil {
		return err
	}
	if print {
		if err := r.st.turn(r.id, r.a.prompt, r.k); err != nil {
			return err
		}
		fmt.Fprintln(r.inv.stdout, replyFor(r.a.prompt, toolOutputFor(r.a.prompt)))
		return nil
	}
	return promptLoop(r.inv, []string{"/quit"}, func(p string) (string, error) {
		return replyFor(p, toolOutputFor(p)), r.st.turn(r.id, p, r.k)
	})
}

// crushContext reads the global context files the model would see, as
// Crush's config loader finds them: the global config directory
// ($CRUSH_GLOBAL_CONFIG, $XDG_CONFIG_HOME/crush or ~/.config/crush), its
// crush.json options.global_context_paths and its crushrc's
// `option global-context-path` lines (following `cd DIR && source FILE`);
// with none listed, Crush's two defaults.
func crushContext(getenv func(string) string) (string, error) {
	dir := crushGlobalDir(getenv)
	var paths []string
	if data, err := os.ReadFile(filepath.Join(dir, "crush.json")); err == nil {
		var cfg struct {
			Options struct {
				GlobalContextPaths []string `json:"global_context_paths"`
			} `json:"options"`
		}
		if err := json.Unmarshal(data, &cfg); err != nil {
			return "", fmt.Errorf("invalid JSON in config file %s", filepath.Join(dir, "crush.json"))
		}
		paths = cfg.Options.GlobalContextPaths
	}
	rc, err := crushRCPaths(filepath.Join(dir, "crushrc"), 0)
	if err != nil {
		return "", err
	}
	paths = append(paths, rc...)
	if len(paths) == 0 {
		paths = []string{filepath.Join(dir, "CRUSH.md"), filepath.Join(filepath.Dir(dir), "AGENTS.md")}
	}
	var out []string
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			out = append(out, string(data))
		}
	}
	return strings.Join(out, "\n"), nil
}

// crushGlobalDir is Crush's global config directory.
func crushGlobalDir(getenv func(string) string) string {
	if dir := getenv("CRUSH_GLOBAL_CONFIG"); dir != "" {
		return dir
	}
	base := getenv("XDG_CONFIG_HOME")
	if base == "" {
		base = filepath.Join(getenv("HOME"), ".config")
	}
	return filepath.Join(base, "crush")
}

// crushRCPaths interprets the two crushrc forms the launcher writes:
// `option global-context-path 'P'` and `cd 'DIR' && source ./crushrc`.
func crushRCPaths(path string, depth int) ([]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || depth > 4 {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("failed to open config file %s: %w", path, err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		words := shellWords(line)
		switch {
		case len(words) == 3 && words[0] == "option" && words[1] == "global-context-path":
			out = append(out, words[2])
		case len(words) == 5 && words[0] == "cd" && words[2] == "&&" && words[3] == "source":
			more, err := crushRCPaths(filepath.Join(words[1], words[4]), depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, more...)
		}
	}
	return out, nil
}

// shellWords splits a line into words, honouring single quotes (enough
// for the quoting ShellQuote-style writers produce); "#" starts a comment.
func shellWords(line string) []string {
	var words []string
	var cur strings.Builder
	in, has := false, false
	for _, c := range line {
		switch {
		case c == '\'':
			in, has = !in, true
		case !in && c == '#' && !has:
			return words
		case !in && (c == ' ' || c == '\t'):
			if has {
				words = append(words, cur.String())
				cur.Reset()
				has = false
			}
		default:
			cur.WriteRune(c)
			has = true
		}
	}
	if has {
		words = append(words, cur.String())
	}
	return words
}

// crushFake is the fakes-list entry. Crush keeps its database in the
// project (repo/.crush beside $HOME in the scripts), and `run` already
// approves every tool: there is no dangerous-mode flag to add in print
// mode, so YOLO is empty (the TUI gets --yolo; see harness/crush_test.go).
var crushFake = Fake{Harness: "crush", Main: FakeCrushMain, Print: "run", run: runCrush, Vars: map[string]string{
	"YOLO": "", "SELECT": "--continue",
	"VERSION_OUT": "crush version v" + CrushVersion, "UTIL": "session", "UTIL_ARG": "list",
	"STORE": "../repo/.crush", "TRANSCRIPTS": "../repo/.crush/crush.db*",
	"FRESH_RE":       `"argv":\["run","[^"]*"\]`,
	"RESUME_RE":      `"argv":\["run","--session","` + uuidRE + `","[^"]*"\]`,
	"BARE_RESUME_RE": `"argv":\["--session","` + uuidRE + `"\]`,
}}
