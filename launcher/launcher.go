package launcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/ai-memory/ai-memory/agentproc"
	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/repo"
	"github.com/ai-memory/ai-memory/transcript"
)

// Options are the wrapper flags of `ai-memory run`.
type Options struct {
	Harness        string   // "" = bare run: continue the latest usable session
	Args           []string // the harness's own argv, passed through in order
	Workstream     string   // --workstream NAME (must exist)
	New            string   // --new NAME (must not exist; always fresh native sessions)
	Executable     string   // --executable PATH or name
	Yolo           bool     // --yolo
	Fresh          bool     // --fresh
	NoSessionIndex bool     // --no-session-index
	NoMCP          bool     // --no-mcp: do not register `ai-memory mcp` for this run
}

// Env is everything the launcher takes from the process, injectable in tests.
type Env struct {
	Stdin, Stdout, Stderr *os.File
	Dir                   string              // working directory
	Getenv                func(string) string // the environment the agent will see
	Environ               []string
	Self                  string // absolute path of this ai-memory binary (for hooks)
	LookPath              func(string) (string, error)
	Now                   func() time.Time
}

func (e Env) withDefaults() (Env, error) {
	if e.Stdin == nil {
		e.Stdin, e.Stdout, e.Stderr = os.Stdin, os.Stdout, os.Stderr
	}
	if e.Getenv == nil {
		e.Getenv = os.Getenv
		e.Environ = os.Environ()
	}
	if e.LookPath == nil {
		e.LookPath = defaultLookPath
	}
	if e.Now == nil {
		e.Now = time.Now
	}
	if e.Dir == "" {
		d, err := os.Getwd()
		if err != nil {
			return e, wrapperError("working directory", err)
		}
		e.Dir = d
	}
	if e.Self == "" {
		if p, err := os.Executable(); err == nil {
			e.Self = p
		}
	}
	return e, nil
}

func (e Env) transcriptEnv() transcript.Env {
	home := e.Getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return transcript.Env{Home: home, Getenv: e.Getenv}
}

// Run performs one `ai-memory run`. It returns nil or ExitStatus carrying the
// agent's own exit code, or an *Error for the launcher's own failures.
func Run(ctx context.Context, o Options, env Env) error {
	env, err := env.withDefaults()
	if err != nil {
		return err
	}
	if err := checkOptions(o); err != nil {
		return err
	}
	if o.Harness == "" {
		return runBare(ctx, o, env)
	}
	h, err := lookupHarness(o.Harness)
	if err != nil {
		return err
	}
	return runHarness(ctx, o, env, h, "")
}

// lookupHarness is the one lookup of a user-typed harness name: an unknown
// name is a usage error listing the registered ones.
func lookupHarness(name string) (harness.Descriptor, error) {
	h, ok := harness.Lookup(name)
	if !ok {
		return h, unknownHarness(name)
	}
	return h, nil
}

func checkOptions(o Options) error {
	if o.Workstream != "" && o.New != "" {
		return usageErrorf("--workstream and --new cannot be combined")
	}
	for _, n := range []string{o.Workstream, o.New} {
		if n == "" {
			continue
		}
		if err := ledger.ValidateName(n); err != nil {
			return &Error{Code: CodeUsage, Err: err}
		}
	}
	return nil
}

// runHarness runs h; adopt names a native session to adopt when the
// workstream is empty (bare run), "" otherwise.
func runHarness(ctx context.Context, o Options, env Env, h harness.Descriptor, adopt string) error {
	exe, err := resolveExecutable(h, o.Executable, env.LookPath)
	if err != nil {
		return err
	}
	intent, err := h.Planner.Parse(o.Args, agentproc.IsTerminal(env.Stdin))
	if err != nil {
		return &Error{Code: CodeUsage, Err: err}
	}
	if intent.Mode == harness.ModePassthrough {
		return runPassthrough(env, exe, intent.Args)
	}
	if intent.Selector && o.Fresh {
		return &Error{Code: CodeUsage, Err: harness.ErrFreshWithSelector}
	}
	l := &launch{o: o, env: env, h: h, src: h.Source, exe: exe, intent: intent, adopt: adopt}
	return l.execute(ctx)
}

// runPassthrough runs help/version/utility invocations untouched: no
// lease, no session flags, no import.
func runPassthrough(env Env, exe string, args []string) error {
	proc, err := agentproc.Start(agentproc.Spec{
		Path: exe, Args: args, Env: env.Environ, Dir: env.Dir,
		Stdin: env.Stdin, Stdout: env.Stdout, Stderr: env.Stderr,
		PTY: usePTY(env, true),
	})
	if err != nil {
		return startError(err)
	}
	st, err := proc.Wait()
	if err != nil {
		return wrapperError("wait for agent", err)
	}
	return exitStatus(st.Code)
}

func startError(err error) error {
	var se *agentproc.StartError
	if errors.As(err, &se) {
		return &Error{Code: se.ExitCode(), Err: err}
	}
	return wrapperError("start agent", err)
}

func exitStatus(code int) error {
	if code == 0 {
		return nil
	}
	return ExitStatus{Code: code}
}

// openLedger opens the ledger of this process (ledger.DefaultWhere: the
// chosen one, or the data home's own when offline). One that cannot be
// reached fails here, before any agent starts, with what to do.
func openLedger(env Env) (ledger.Ledger, error) {
	w, err := ledger.DefaultWhere(env.Getenv)
	if err != nil {
		return nil, &Error{Code: CodeUsage, Err: err}
	}
	w.Notice = func(line string) { say(env.Stderr, "%s", line) }
	db, err := ledger.Open(context.Background(), w)
	if errors.Is(err, ledger.ErrUnavailable) {
		return nil, &Error{Code: CodeUnavailable, Err: fmt.Errorf("%w; start it or fix the ledger setting (`ai-memory ledger status` says which one is used), or run with --offline to record this run in this machine's own ledger and send it later with `ai-memory ledger sync`", err)}
	}
	if err != nil {
		return nil, wrapperError("open ledger", err)
	}
	return db, nil
}

// OpenExistingLedger opens the ledger only if one exists, so that reading
// commands never create a data directory; nil, nil means no ledger yet.
func OpenExistingLedger(getenv func(string) string) (ledger.Ledger, error) {
	w, err := ledger.DefaultWhere(getenv)
	if err != nil {
		return nil, err
	}
	if ok, _, err := ledger.Exists(context.Background(), w); !ok && err == nil {
		return nil, nil
	}
	w.Notice = func(line string) { say(os.Stderr, "%s", line) }
	return ledger.Open(context.Background(), w)
}

// ledgerExists reports whether a ledger was ever created, so that read-only
// paths (bare run with nothing to continue) create nothing. A ledger it
// cannot ask counts as existing: opening it then says what is wrong (an
// unreachable server is not "nothing recorded yet").
func ledgerExists(env Env) bool {
	w, err := ledger.DefaultWhere(env.Getenv)
	if err != nil {
		return true
	}
	ok, _, err := ledger.Exists(context.Background(), w)
	return ok || err != nil
}

func say(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "ai-memory: "+format+"\n", args...)
}

// usePTY decides how the agent gets its terminal. A person at a terminal
// (stdin and stdout both terminals) gets the agent under a PTY; print and
// exec modes, pipes and CI get inherited stdio, so that the agent's output
// reaches a pipe byte for byte (no CRLF translation, stderr kept apart).
func usePTY(env Env, interactive bool) bool {
	return interactive && agentproc.IsTerminal(env.Stdin) && agentproc.IsTerminal(env.Stdout)
}

// scopeOf is ResolveScope for a launch: its error is the launcher's.
func scopeOf(ctx context.Context, db ledger.Ledger, id repo.Identity) (ledger.Scope, error) {
	s, err := ResolveScope(ctx, db, id)
	if err != nil {
		return s, wrapperError("identify repository", err)
	}
	return s, nil
}
