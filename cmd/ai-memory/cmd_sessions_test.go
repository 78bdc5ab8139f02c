package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/internal/testledger"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/sessionindex"
	"github.com/urfave/cli/v2"
)

// sessEnv is one fake outside world for the sessions commands.
type sessEnv struct {
	t     *testing.T
	root  string // project root (has .git)
	cwd   string
	env   map[string]string
	now   time.Time
	alive map[string]bool // "runtime/native" -> alive
}

func newSessEnv(t *testing.T) *sessEnv {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// A minimal valid git dir (HEAD, objects, refs), found without git.
	for _, d := range []string{".git/objects", ".git/refs"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "pkg", "deep")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	return &sessEnv{t: t, root: root, cwd: sub, env: map[string]string{},
		now: time.Date(2026, 8, 4, 16, 41, 42, 0, time.UTC), alive: map[string]bool{}}
}

func (e *sessEnv) deps() sessionsDeps {
	return sessionsDeps{
		getenv: func(k string) string { return e.env[k] },
		getwd:  func() (string, error) { return e.cwd, nil },
		now:    func() time.Time { return e.now },
		alive: func(context.Context, func(string) string, io.Writer) (func(string, string) bool, func()) {
			return func(rt, id string) bool { return e.alive[rt+"/"+id] }, func() {}
		},
	}
}

// run executes `ai-memory sessions args...` and returns stdout, stderr and
// the exit code main would use.
func (e *sessEnv) run(args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	app := &cli.App{Name: "ai-memory", Writer: &out, ErrWriter: &errb,
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError:   func(_ *cli.Context, err error, _ bool) error { return usageError{err} },
		Commands:       []*cli.Command{newSessionsCommandWith(e.deps())},
	}
	code := exitCode(app.Run(append([]string{"ai-memory", "sessions"}, args...)), &errb)
	return out.String(), errb.String(), code
}

func (e *sessEnv) mustRun(args ...string) string {
	e.t.Helper()
	out, errs, code := e.run(args...)
	if code != 0 {
		e.t.Fatalf("sessions %v: exit %d\n%s%s", args, code, out, errs)
	}
	return out
}

func (e *sessEnv) mustJSON(v any, args ...string) {
	e.t.Helper()
	out := e.mustRun(append(args, "--json")...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		e.t.Fatalf("sessions %v --json: %v\n%s", args, err, out)
	}
}

type sessStartOut struct {
	Session       map[string]any   `json:"session"`
	Resumed       bool             `json:"resumed"`
	Evicted       []map[string]any `json:"evicted"`
	Interrupted   []map[string]any `json:"interrupted"`
	Open          []map[string]any `json:"open"`
	LatestSession string           `json:"latest_session"`
	HistoryLimit  int              `json:"history_limit"`
}

func TestSessionsStartDetectsRuntimeAndFindsGitRoot(t *testing.T) {
	e := newSessEnv(t)
	e.env["CODEX_THREAD_ID"] = "019fcbef"
	var got sessStartOut
	e.mustJSON(&got, "start", "--status", "active", "--focus", "fix bug")
	s := got.Session
	if s["id"] != "20260804-1641-codex" || s["runtime"] != "codex" || s["native_session_id"] != "019fcbef" ||
		s["started"] != "2026-08-04T16:41:42Z" || s["ended"] != nil || s["status"] != "active" || s["focus"] != "fix bug" {
		t.Fatalf("session %v", s)
	}
	if got.Resumed || got.LatestSession != "20260804-1641-codex" || got.HistoryLimit != 20 || got.Evicted == nil || got.Interrupted == nil {
		t.Fatalf("start output %+v", got)
	}
	if _, err := os.Stat(sessionindex.Path(e.root)); err != nil {
		t.Fatalf("index not at the git root: %v", err)
	}
	e.mustJSON(&got, "start")
	if !got.Resumed || got.Session["focus"] != "fix bug" {
		t.Fatalf("second start did not resume: %+v", got)
	}
}

func TestSessionsProjectRootFlagOnEitherLevel(t *testing.T) {
	e := newSessEnv(t)
	a, b := t.TempDir(), t.TempDir()
	e.mustRun("--project-root", a, "start", "--runtime", "claude")
	e.mustRun("start", "--project-root", b, "--runtime", "claude")
	for _, dir := range []string{a, b} {
		if _, err := os.Stat(sessionindex.Path(dir)); err != nil {
			t.Fatalf("no index in %s: %v", dir, err)
		}
	}
	if _, err := os.Stat(sessionindex.Path(e.root)); err == nil {
		t.Fatal("--project-root ignored")
	}
}

func TestSessionsStartRecoveryOutput(t *testing.T) {
	e := newSessEnv(t)
	e.alive["codex/LIVE"], e.alive["claude/DEAD"] = true, true
	e.mustRun("start", "--runtime", "codex", "--native-id", "LIVE")
	e.mustRun("start", "--runtime", "claude") // pending
	e.mustRun("start", "--runtime", "claude", "--native-id", "DEAD")
	e.alive["claude/DEAD"] = false // its launcher died
	out := e.mustRun("start", "--runtime", "codex", "--native-id", "NEW")
	for _, want := range []string{
		"Session 20260804-1641-codex-2 registered",
		"Marked interrupted (no live ai-memory run holds it): 20260804-1641-claude-2 (claude, native id DEAD, interrupted",
		"Still open (a live run holds it; may be a parallel session): 20260804-1641-codex (",
		"Still open (native id not known, cannot check; may be a parallel session): 20260804-1641-claude (",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestSessionsStartWithoutRuntimeIsUsageError(t *testing.T) {
	e := newSessEnv(t)
	_, errs, code := e.run("start")
	if code != exitUsage || !strings.Contains(errs, "--runtime") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

func TestSessionsEnd(t *testing.T) {
	e := newSessEnv(t)
	e.alive["codex/A"], e.alive["codex/B"] = true, true
	e.mustRun("start", "--runtime", "codex", "--native-id", "A")
	e.mustRun("start", "--runtime", "codex", "--native-id", "B")
	e.env["CODEX_THREAD_ID"] = "A"
	out := e.mustRun("end")
	if !strings.Contains(out, "Session 20260804-1641-codex ended") {
		t.Fatalf("end output: %s", out)
	}
	var list struct{ Sessions []map[string]any }
	e.mustJSON(&list, "list", "--status", "active")
	if len(list.Sessions) != 1 || list.Sessions[0]["native_session_id"] != "B" {
		t.Fatalf("active after end: %v", list.Sessions)
	}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		code int
		msg  string
	}{
		{name: "unknown native id", args: []string{"end", "--native-id", "Z", "--runtime", "codex"}, code: exitFailure, msg: "no session with runtime codex, native id Z"},
		{name: "no identity", args: []string{"end"}, env: map[string]string{}, code: exitUsage, msg: "--native-id"},
		{name: "unknown --id", args: []string{"end", "--id", "nope"}, code: exitFailure, msg: "no session with id nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.env != nil {
				e.env = tt.env
			}
			_, errs, code := e.run(tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.msg) || strings.Count(errs, "\n") != 1 {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
		})
	}
}

func TestSessionsReport(t *testing.T) {
	e := newSessEnv(t)
	out := e.mustRun("report")
	if !strings.Contains(out, "Current session: none") || !strings.Contains(out, "(empty)") {
		t.Fatalf("empty report: %s", out)
	}
	e.alive["codex/A"] = true
	e.mustRun("start", "--runtime", "codex", "--native-id", "A", "--focus", "mine")
	e.mustRun("start", "--runtime", "claude", "--native-id", "B") // now latest
	e.env["CODEX_THREAD_ID"] = "A"
	var rep struct {
		CurrentSession string           `json:"current_session"`
		CurrentStatus  string           `json:"current_status"`
		File           string           `json:"file"`
		HistoryLimit   int              `json:"history_limit"`
		Sessions       []map[string]any `json:"sessions"`
	}
	e.mustJSON(&rep, "report")
	if rep.CurrentSession != "20260804-1641-codex" || rep.CurrentStatus != "active" ||
		rep.File != sessionindex.Path(e.root) || len(rep.Sessions) != 2 || rep.HistoryLimit != 20 {
		t.Fatalf("report %+v", rep)
	}
	text := e.mustRun("report")
	for _, want := range []string{"Current session: 20260804-1641-codex (active)", "History (2 records, limit 20", "NATIVE ID", "mine"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
}

// TestSessionsReportJSONKeys pins the exact keys of the report, which
// agents parse.
func TestSessionsReportJSONKeys(t *testing.T) {
	e := newSessEnv(t)
	e.mustRun("start", "--runtime", "codex")
	var m map[string]json.RawMessage
	e.mustJSON(&m, "report")
	for _, k := range []string{"current_session", "current_status", "latest_session", "file", "history_limit", "sessions"} {
		if _, ok := m[k]; !ok {
			t.Errorf("report JSON lacks %q", k)
		}
	}
}

func TestSessionsReportCorruptFile(t *testing.T) {
	e := newSessEnv(t)
	if err := os.MkdirAll(filepath.Dir(sessionindex.Path(e.root)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sessionindex.Path(e.root), []byte("{oops"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := e.run("report")
	if code != exitFailure || !strings.Contains(errs, "moves it aside") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	_, errs, code = e.run("start", "--runtime", "codex")
	if code != 0 || !strings.Contains(errs, "moved it to") {
		t.Fatalf("start on corrupt file: exit %d, stderr %q", code, errs)
	}
}

func TestSessionsListBindInterrupt(t *testing.T) {
	e := newSessEnv(t)
	e.mustRun("start", "--runtime", "claude") // pending
	out := e.mustRun("bind-id", "--id", "20260804-1641-claude", "--native-id", "real-1")
	if !strings.Contains(out, "native id real-1") {
		t.Fatalf("bind output: %s", out)
	}
	_, errs, code := e.run("bind-id", "--id", "20260804-1641-claude", "--native-id", "real-2")
	if code != exitFailure || !strings.Contains(errs, "refusing to overwrite") {
		t.Fatalf("rebind: exit %d %s", code, errs)
	}
	var got struct{ Session map[string]any }
	e.mustJSON(&got, "interrupt", "--id", "20260804-1641-claude")
	if got.Session["status"] != "interrupted" || got.Session["ended"] != "2026-08-04T16:41:42Z" {
		t.Fatalf("interrupt: %v", got.Session)
	}
	var list struct{ Sessions []map[string]any }
	e.mustJSON(&list, "list", "--status", "interrupted")
	if len(list.Sessions) != 1 {
		t.Fatalf("list: %v", list.Sessions)
	}
	e.mustJSON(&list, "list", "--status", "active")
	if list.Sessions == nil || len(list.Sessions) != 0 {
		t.Fatalf("active list should be [] not %v", list.Sessions)
	}
	for _, args := range [][]string{{"list", "--status", "open"}, {"bind-id", "--id", "x"}, {"interrupt"}} {
		if _, _, code := e.run(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want usage", args, code)
		}
	}
}

func TestSessionsInstallDefaultsToProjectRoot(t *testing.T) {
	e := newSessEnv(t)
	out := e.mustRun("install", "--dry-run")
	if !strings.Contains(out, "dry run") {
		t.Fatalf("dry run output: %s", out)
	}
	if _, err := os.Stat(filepath.Join(e.root, "AGENTS.md")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("dry run wrote AGENTS.md")
	}
	e.mustRun("install")
	if out := e.mustRun("install"); !strings.Contains(out, "already installed") {
		t.Fatalf("second install: %s", out)
	}
	if b, err := os.ReadFile(filepath.Join(e.root, "AGENTS.md")); err != nil || string(b) != sessionindex.AgentsSection {
		t.Fatalf("AGENTS.md: %q %v", b, err)
	}
}

func TestSessionsLedgerAliveWithoutLedger(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	var warn bytes.Buffer
	alive, release := sessLedgerAlive(context.Background(), func(k string) string {
		return map[string]string{"AI_MEMORY_HOME": home}[k]
	}, &warn)
	defer release()
	if alive("codex", "x") {
		t.Fatal("alive without a ledger")
	}
	if _, err := os.Stat(home); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the check created a data home")
	}
}

func TestSessionsLedgerAliveBrokenLedgerCountsAsAlive(t *testing.T) {
	if testledger.OnPostgres() {
		t.Skip("a broken SQLite ledger file; PostgreSQL has no file to break")
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "ledger.db"), []byte("not sqlite, not at all, definitely"), 0o600); err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	alive, release := sessLedgerAlive(context.Background(), func(k string) string {
		return map[string]string{"AI_MEMORY_HOME": home}[k]
	}, &warn)
	defer release()
	if !alive("codex", "x") || !strings.Contains(warn.String(), "left active") {
		t.Fatalf("broken ledger: warn %q", warn.String())
	}
}

func TestSessionsLedgerAliveSeesLiveRun(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	where := testledger.Where(t, home)
	db, err := ledger.Open(ctx, where)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := db.SelectWorkstream(ctx, ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w", Cwd: home}, ledger.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	run, _, err := db.AcquireLease(ctx, ws.ID, "codex", ledger.CurrentOwner())
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetRunSession(ctx, run.ID, "LIVE"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	alive, release := sessLedgerAlive(ctx, func(k string) string {
		return map[string]string{"AI_MEMORY_HOME": home, "AI_MEMORY_LEDGER": where.Location}[k]
	}, io.Discard)
	defer release()
	if !alive("codex", "LIVE") || alive("codex", "DEAD") || alive("claude", "LIVE") {
		t.Fatal("liveness does not follow the ledger's runs")
	}
}

func TestSessionsProjectRoot(t *testing.T) {
	e := newSessEnv(t)
	_, _, code := e.run("start", "--runtime", "codex", "--native-id", "n1")
	if code != 0 {
		t.Fatalf("start exited %d", code)
	}
	if _, err := os.Stat(filepath.Join(e.root, ".agent-sessions", "session-history.json")); err != nil {
		t.Fatalf("index not at the worktree top-level: %v", err)
	}
	plain := t.TempDir()
	e.cwd = plain
	if _, _, code := e.run("start", "--runtime", "codex", "--native-id", "n2"); code != 0 {
		t.Fatalf("start in a plain dir exited %d", code)
	}
	if _, err := os.Stat(filepath.Join(plain, ".agent-sessions", "session-history.json")); err != nil {
		t.Fatalf("index not in the plain cwd: %v", err)
	}
}
