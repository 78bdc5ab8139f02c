package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/harness/harnesstest"
	"github.com/ai-memory/ai-memory/internal/testledger"
	"github.com/ai-memory/ai-memory/transcript"
	"github.com/rogpeppe/go-internal/testscript"
)

var updateScripts = flag.Bool("update", false, "rewrite cmp expectations inside the txtar scripts")

// TestMain registers the real ai-memory main and the fake harness CLIs as
// executables on the scripts' PATH (the cmd/go testscript pattern).
func TestMain(m *testing.M) {
	cmds := map[string]func(){
		"ai-memory": func() { os.Exit(run(os.Args, stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr})) },
	}
	for _, f := range harnesstest.Fakes() {
		cmds[f.Command()] = func() { os.Exit(f.Main()) }
	}
	testscript.Main(m, cmds)
}

// scriptCmds are the custom testscript commands (see each cmd* doc).
var scriptCmds = map[string]func(*testscript.TestScript, bool, []string){
	"status":    cmdStatus,
	"waitfile":  cmdWaitFile,
	"sleep":     cmdSleep,
	"sessions":  cmdSessions,
	"newledger": cmdNewLedger,
	"fault":     cmdFault,
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		UpdateScripts:       *updateScripts,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup:               setupScript,
		Cmds:                scriptCmds,
		Condition:           backendCondition(testledger.Backend()),
	})
}

// backendCondition answers the scripts' [sqlite] and [postgres]
// conditions: which backend holds the ledger. Scripts about the SQLite
// file itself (its path, modes, damage, rebuild of the file) skip on
// PostgreSQL and say why.
func backendCondition(backend string) func(string) (bool, error) {
	return func(cond string) (bool, error) {
		switch cond {
		case "sqlite", "postgres":
			return cond == backend, nil
		}
		return false, fmt.Errorf("unknown condition %q", cond)
	}
}

// setupScript isolates every script: its own HOME, data home and harness
// stores under $WORK, and a small PATH of the fakes plus system dirs.
func setupScript(e *testscript.Env) error {
	home := filepath.Join(e.WorkDir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	e.Setenv("HOME", home)
	e.Setenv("AI_MEMORY_HOME", filepath.Join(e.WorkDir, "data"))
	e.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	e.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	for _, k := range harness.StoreEnv() {
		e.Setenv(k, "") // blank = unset: every store under $HOME
	}
	e.Setenv("FAKE_HARNESS_LOG", filepath.Join(e.WorkDir, "fake.log"))
	e.Setenv("GIT_AUTHOR_NAME", "t")
	e.Setenv("GIT_AUTHOR_EMAIL", "t@example.com")
	e.Setenv("GIT_COMMITTER_NAME", "t")
	e.Setenv("GIT_COMMITTER_EMAIL", "t@example.com")
	e.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	// The argv every scenario expects is the one without the per-run MCP
	// server; testdata/harness/mcp.txtar turns it back on.
	e.Setenv("AI_MEMORY_MCP", "0")
	// BINDIR holds the registered executables (ai-memory and the fakes), so a
	// script can build a PATH that has ai-memory but no harness.
	e.Setenv("BINDIR", strings.SplitN(os.Getenv("PATH"), string(os.PathListSeparator), 2)[0])
	e.Setenv("LEDGER_BACKEND", testledger.Backend())
	return newScriptLedger(e.Setenv, e.Defer, testledger.Backend())
}

// newScriptLedger gives a script a ledger of its own on backend (the one
// under test, testledger, or postgres for TestHarnessScripts_Postgres): on
// PostgreSQL a fresh database, dropped when the script ends, named by
// AI_MEMORY_LEDGER; on SQLite nothing, the data home's file being the
// script's own.
func newScriptLedger(setenv func(string, string), deferFn func(func()), backend string) error {
	if backend != "postgres" {
		return nil
	}
	server, err := testledger.Server()
	if err != nil {
		return err
	}
	loc, drop, err := testledger.NewDatabase(context.Background(), server)
	if err != nil {
		return err
	}
	setenv("AI_MEMORY_LEDGER", loc)
	deferFn(drop)
	return nil
}

// cmdNewLedger gives the rest of the script an empty ledger: on PostgreSQL
// a fresh database in AI_MEMORY_LEDGER; on SQLite nothing (the script
// switches AI_MEMORY_HOME, whose file is new). Usage: newledger
func cmdNewLedger(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: newledger")
	}
	ts.Check(newScriptLedger(ts.Setenv, ts.Defer, ts.Getenv("LEDGER_BACKEND")))
}

// cmdStatus runs a command and checks its exact exit code:
//
//	status 23 ai-memory run claude -p hi
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status CODE command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: bad code %q", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("status: %v", err)
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

// cmdSleep pauses the script: sleep DURATION (a Go duration, e.g. 500ms).
func cmdSleep(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sleep duration")
	}
	d, err := time.ParseDuration(args[0])
	ts.Check(err)
	time.Sleep(d)
}

// cmdSessions asks the registered source of harness $H for the sessions
// recorded in the current directory's checkout, checks there are exactly N,
// and sets ID1..IDN to their ids, newest first: sessions N. Scenarios learn
// the ids this way because most harnesses make their own.
func cmdSessions(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sessions N")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("sessions: bad count %q", args[0])
	}
	d, ok := harness.Lookup(ts.Getenv("H"))
	if !ok {
		ts.Fatalf("sessions: $H=%q is not a registered harness", ts.Getenv("H"))
	}
	env := transcript.Env{Home: ts.Getenv("HOME"), Getenv: ts.Getenv}
	ss, err := d.Source.List(env, ts.MkAbs("."), 0)
	ts.Check(err)
	var ids []string
	for i, s := range ss {
		ids = append(ids, s.ID)
		ts.Setenv(fmt.Sprintf("ID%d", i+1), s.ID)
	}
	if len(ss) != want {
		ts.Fatalf("sessions: %d %s sessions in this checkout %q, want %d", len(ss), d.Name, ids, want)
	}
}

// waitFileTimeout bounds waitfile. It only delays a failing test: on a loaded
// 2-core machine a fake plus the launcher under -race has taken over 20 s to
// write its first record.
const waitFileTimeout = 60 * time.Second

// cmdWaitFile waits (up to waitFileTimeout) until a file matching the glob PATH exists
// and, optionally, contains a substring: waitfile PATH [SUBSTRING]
func cmdWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: waitfile path [substring]")
	}
	p := ts.MkAbs(args[0])
	deadline := time.Now().Add(waitFileTimeout)
	for time.Now().Before(deadline) {
		matches, _ := filepath.Glob(p)
		for _, m := range matches {
			b, err := os.ReadFile(m)
			if err == nil && (len(args) < 2 || strings.Contains(string(b), args[1])) {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	ts.Fatalf("waitfile: %s not ready after %s", args[0], waitFileTimeout)
}

// cmdFault schedules an outage change for when a run gets somewhere: once
// a file matching the glob PATH contains SUBSTRING, create (down) or
// remove (up) the file SWITCH, in the background, so that the next
// command can be a foreground `status` that checks the exit code:
//
//	fault down $HOME/.claude/projects/*/*.jsonl 'first' $WORK/shared.db.down
func cmdFault(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 || (args[0] != "down" && args[0] != "up") {
		ts.Fatalf("usage: fault down|up PATH SUBSTRING SWITCH")
	}
	glob, sub, sw := ts.MkAbs(args[1]), args[2], ts.MkAbs(args[3])
	go func() {
		deadline := time.Now().Add(waitFileTimeout)
		for time.Now().Before(deadline) {
			matches, _ := filepath.Glob(glob)
			for _, m := range matches {
				if b, err := os.ReadFile(m); err == nil && strings.Contains(string(b), sub) {
					if args[0] == "down" {
						os.WriteFile(sw, nil, 0o600)
					} else {
						os.Remove(sw)
					}
					return
				}
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
}

// otherHarness is the first registered harness other than name that has a
// fake: $OTHER_H, for scenarios where a second harness joins a workstream.
func otherHarness(name string) harnesstest.Fake {
	for _, d := range harness.All() {
		if f, ok := harnesstest.FakeFor(d.Name); ok && d.Name != name {
			return f
		}
	}
	return harnesstest.Fake{}
}

// TestHarnessScripts runs the shared scenarios of testdata/harness once per
// registered harness, against its fake: $H is the harness, $PRINT its
// print-mode argument, $PRODUCT its name for people, $EXE its executable,
// $OTHER_H and $OTHER_PRINT another harness, and the fake's Vars
// the flags, store paths and argv patterns the scenarios check. A
// registered harness without a fake fails here.
func TestHarnessScripts(t *testing.T) {
	for _, d := range harness.All() {
		runHarnessScripts(t, d, testledger.Backend())
	}
}

// runHarnessScripts runs testdata/harness for one harness on the ledger
// backend named ([sqlite] and [postgres] conditions; a fresh ledger per
// script, see newScriptLedger).
func runHarnessScripts(t *testing.T, d harness.Descriptor, backend string) {
	fake, ok := harnesstest.FakeFor(d.Name)
	if !ok {
		t.Errorf("%s has no fake in harness/harnesstest", d.Name)
		return
	}
	t.Run(d.Name, func(t *testing.T) {
		// Harnesses run side by side: their scenarios mostly wait on
		// fakes and leases, so with 14 harnesses a serial run spends
		// most of its time idle (go test -parallel bounds how many run).
		t.Parallel()
		testscript.Run(t, testscript.Params{
			Dir:                 filepath.Join("testdata", "harness"),
			RequireExplicitExec: true,
			RequireUniqueNames:  true,
			Cmds:                scriptCmds,
			// [yolo]: the harness has a native dangerous mode for --yolo;
			// [mcp]: it takes an MCP server for one launch;
			// [delivery]: it has a per-run context route for the packet;
			// [imports-tools]: its store yields replies and tool results
			// (not only the user's prompts: Descriptor.PromptsOnly);
			// [postgres]: the ledger is on PostgreSQL (one ledger per
			// script, whatever AI_MEMORY_HOME the script switches to).
			Condition: func(cond string) (bool, error) {
				switch cond {
				case "sqlite", "postgres":
					return backendCondition(backend)(cond)
				case "yolo":
					return fake.Vars["YOLO"] != "", nil
				case "mcp":
					return d.MCPToolName != nil, nil
				case "delivery": // the harness takes a per-run handoff
					return fake.Vars["DELIVERY"] != "none", nil
				case "imports-tools":
					return !d.PromptsOnly, nil
				}
				return false, fmt.Errorf("unknown condition %q", cond)
			},
			Setup: func(e *testscript.Env) error {
				if err := setupScript(e); err != nil {
					return err
				}
				if backend != testledger.Backend() {
					e.Setenv("LEDGER_BACKEND", backend)
					if err := newScriptLedger(e.Setenv, e.Defer, backend); err != nil {
						return err
					}
				}
				e.Setenv("H", d.Name)
				e.Setenv("PRINT", fake.Print)
				e.Setenv("PRODUCT", d.Product)
				if d.MCPToolName != nil {
					e.Setenv("MCP_SEARCH", d.MCPToolName(harness.MCPServerName, "search"))
				}
				e.Setenv("EXE", d.Executable)
				other := otherHarness(d.Name)
				e.Setenv("OTHER_H", other.Harness)
				e.Setenv("OTHER_PRINT", other.Print)
				for k, v := range fake.Vars {
					e.Setenv(k, v)
				}
				return nil
			},
		})
	})
}
