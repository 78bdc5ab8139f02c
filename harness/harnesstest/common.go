package harnesstest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"
)

// invocation is one run of a fake: its inputs and its environment, so unit
// tests can drive the fakes without a subprocess.
type invocation struct {
	args      []string // argv after the program name
	stdin     io.Reader
	stdout    io.Writer
	stderr    io.Writer
	getenv    func(string) string
	environ   []string // passed to hook commands
	cwd       string   // real path of the working directory
	stdinTTY  bool
	stdoutTTY bool
	termSize  func() (rows, cols int, err error)
	now       func() time.Time
	sleep     func(time.Duration)
	kill      func(sig string) error
}

// osInvocation describes the current process.
func osInvocation() (invocation, error) {
	wd, err := os.Getwd()
	if err != nil {
		return invocation{}, fmt.Errorf("get working directory: %w", err)
	}
	if real, err := filepath.EvalSymlinks(wd); err == nil {
		wd = real
	}
	in := int(os.Stdin.Fd())
	return invocation{
		args: os.Args[1:], stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		getenv: os.Getenv, environ: os.Environ(), cwd: wd,
		stdinTTY: term.IsTerminal(in), stdoutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		termSize: func() (int, int, error) { c, r, err := term.GetSize(in); return r, c, err },
		now:      time.Now, sleep: time.Sleep, kill: killSelf,
	}, nil
}

// knobs are the FAKE_* behaviour switches.
type knobs struct {
	log     string
	exit    int
	sleep   time.Duration
	slow    bool
	kill    string
	partial bool
}

func readKnobs(getenv func(string) string) (knobs, error) {
	k := knobs{log: getenv("FAKE_HARNESS_LOG"), kill: getenv("FAKE_KILL"),
		slow: getenv("FAKE_SLOW") == "1", partial: getenv("FAKE_PARTIAL") == "1", exit: -1}
	if v := getenv("FAKE_EXIT"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return k, fmt.Errorf("FAKE_EXIT=%q: %w", v, err)
		}
		k.exit = n
	}
	if v := getenv("FAKE_SLEEP"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return k, fmt.Errorf("FAKE_SLEEP=%q: %w", v, err)
		}
		k.sleep = d
	}
	return k, nil
}

// logEntry is one line of $FAKE_HARNESS_LOG.
type logEntry struct {
	Harness   string            `json:"harness"`
	Argv      []string          `json:"argv"`
	Env       map[string]string `json:"env"`
	StdinTTY  bool              `json:"stdin_tty"`
	StdoutTTY bool              `json:"stdout_tty"`
	Context   string            `json:"context"`
	SessionID string            `json:"session_id,omitempty"`
	// MCP is the argv (command, then arguments) of the `ai-memory` MCP
	// server the launcher registered for this run, read from the harness's
	// own mechanism (flag, -c override, config variable or extension file);
	// empty when none is registered.
	MCP []string `json:"mcp,omitempty"`
	// BaseInstructionsKept (Codex) is false when a model_instructions_file
	// replaced the session's own base instructions instead of extending them.
	BaseInstructionsKept *bool `json:"base_instructions_kept,omitempty"`
}

// loggedEnv are the variables whose values the log records.
var loggedEnv = []string{"AI_MEMORY_RUN_ID", "AI_MEMORY_WORKSTREAM_ID", "AI_MEMORY_HARNESS"}

// writeLog appends e to the log file, if one is configured.
func writeLog(inv invocation, k knobs, e logEntry) error {
	if k.log == "" {
		return nil
	}
	e.Argv = append([]string{}, inv.args...)
	e.Env = map[string]string{}
	for _, name := range loggedEnv {
		e.Env[name] = inv.getenv(name)
	}
	e.StdinTTY, e.StdoutTTY = inv.stdinTTY, inv.stdoutTTY
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("encode fake log: %w", err)
	}
	f, err := os.OpenFile(k.log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("open fake log: %w", err)
	}
	defer f.Close()
	if _, err := f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("write fake log: %w", err)
	}
	return nil
}

// finish applies FAKE_SLEEP, FAKE_KILL and FAKE_EXIT to a run that would
// have exited with code.
func finish(inv invocation, k knobs, code int) int {
	if k.sleep > 0 {
		inv.sleep(k.sleep)
	}
	if k.kill != "" {
		if err := inv.kill(k.kill); err != nil {
			fmt.Fprintf(inv.stderr, "fake: FAKE_KILL: %v\n", err)
			return 1
		}
	}
	if k.exit >= 0 {
		return k.exit
	}
	return code
}

// jsonlWriter appends records to a transcript. It holds back the newline of
// the last record until close, so FAKE_PARTIAL can leave it unterminated,
// and sleeps between records with FAKE_SLOW.
type jsonlWriter struct {
	f       *os.File
	inv     invocation
	k       knobs
	pending bool
	closed  bool
	err     error
}

// openJSONL opens path for appending, creating it (0600) and its dirs (0700).
func openJSONL(path string, inv invocation, k knobs) (*jsonlWriter, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create transcript dir: %w", err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open transcript: %w", err)
	}
	return &jsonlWriter{f: f, inv: inv, k: k}, nil
}

// write appends one record.
func (w *jsonlWriter) write(rec any) {
	if w.err != nil || w.closed {
		return
	}
	line, err := json.Marshal(rec)
	if err != nil {
		w.err = fmt.Errorf("encode record: %w", err)
		return
	}
	if w.pending {
		line = append([]byte{'\n'}, line...)
		if w.k.slow && w.k.sleep > 0 {
			w.inv.sleep(w.k.sleep)
		}
	}
	if _, err := w.f.Write(line); err != nil {
		w.err = fmt.Errorf("write transcript: %w", err)
	}
	w.pending = true
}

// close terminates the last line (unless FAKE_PARTIAL) and closes the file.
func (w *jsonlWriter) close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.pending && !w.k.partial && w.err == nil {
		_, w.err = w.f.Write([]byte{'\n'})
	}
	if err := w.f.Close(); err != nil && w.err == nil {
		w.err = fmt.Errorf("close transcript: %w", err)
	}
	return w.err
}

// FoldCwd is Claude Code's project directory name for a working directory:
// every character outside [A-Za-z0-9] becomes '-'.
func FoldCwd(cwd string) string {
	b := []byte(cwd)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

// truncRunes returns the first n runes of s (Python's s[:n]).
func truncRunes(s string, n int) string {
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}

// promptLoop reads prompts from stdin after printing "> ", answering SIZE
// with the terminal size, until EOF or one of the quit commands.
func promptLoop(inv invocation, quit []string, turn func(prompt string) (string, error)) error {
	sc := bufio.NewScanner(inv.stdin)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for {
		fmt.Fprint(inv.stdout, "> ")
		if !sc.Scan() {
			fmt.Fprintln(inv.stdout)
			return sc.Err()
		}
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case containsStr(quit, strings.TrimSpace(line)):
			return nil
		case strings.TrimSpace(line) == "SIZE":
			rows, cols, err := inv.termSize()
			if err != nil {
				fmt.Fprintf(inv.stdout, "size: %v\n", err)
				continue
			}
			fmt.Fprintf(inv.stdout, "%d %d\n", rows, cols)
		case strings.TrimSpace(line) == "":
		default:
			reply, err := turn(line)
			if err != nil {
				return err
			}
			fmt.Fprintln(inv.stdout, reply)
		}
	}
}

func containsStr(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// replyFor is the mock model's deterministic answer (see
// real-harnesses.md): "ACK: <prompt[:40]>", or after the RUN_TOOL tool call
// "TOOL_DONE: <output[:60]> | ACK: <prompt[:40]>".
func replyFor(prompt, toolOutput string) string {
	ack := "ACK: " + truncRunes(prompt, 40)
	if toolOutput == "" {
		return ack
	}
	return "TOOL_DONE: " + truncRunes(toolOutput, 60) + " | " + ack
}

func wantsTool(prompt string) bool { return strings.Contains(prompt, "RUN_TOOL") }

// mcpServerName is the key `ai-memory run` registers its server under.
const mcpServerName = "ai-memory"

// stdioServer is a stdio MCP server entry in the JSON shape most harnesses
// share ({"command": ..., "args": [...]}).
type stdioServer struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// argv is the entry's command line, nil when it has no command.
func (s stdioServer) argv() []string {
	if s.Command == "" {
		return nil
	}
	return append([]string{s.Command}, s.Args...)
}
