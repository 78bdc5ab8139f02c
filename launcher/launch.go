package launcher

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ai-memory/ai-memory/agentproc"
	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledgersync"
	"github.com/ai-memory/ai-memory/repo"
	"github.com/ai-memory/ai-memory/transcript"
	"github.com/google/uuid"
)

// launch is the state of one managed run, from lease to release.
type launch struct {
	o      Options
	env    Env
	h      harness.Descriptor
	src    transcript.Source
	exe    string
	intent harness.Intent
	adopt  string

	db      ledger.Ledger
	id      repo.Identity
	ws      ledger.Workstream
	run     ledger.Run
	hb      *heartbeat
	started time.Time
	runDir  string
	// before holds, when the session id is only known after the run, this
	// checkout's sessions that were already written when the agent was
	// spawned, as they were then: one of them is this run's session only
	// if it changes (see resolveSession).
	before map[string]transcript.Session

	choice choice
	mcp    *harness.MCPServer // registered for this run; nil = none
	packet packet
	plan   harness.Plan
	index  *indexer
	live   *liveImport
	closed bool

	lossMu sync.Mutex
	losses map[string]bool // loss notes of every import of this run

	saved atomic.Int64 // events this run added: live imports, final import, notes
}

func (l *launch) execute(ctx context.Context) (err error) {
	if l.db, err = openLedger(l.env); err != nil {
		return err
	}
	defer func() { l.db.Close() }() // the guard, once there: its last replay
	if err := l.selectWorkstream(ctx); err != nil {
		return err
	}
	run, reclaimed, err := acquire(ctx, l.db, l.ws.ID, l.h.Name, l.env.Stderr)
	if err != nil {
		return err
	}
	l.run, l.started = run, l.env.Now()
	l.noteOffline()
	// From here on an outage of the ledger never stops the run: what it
	// writes is kept in a journal and sent when the ledger is back.
	l.db = ledgersync.NewGuard(l.db, run.ID, l.env.Stderr)
	l.hb = startHeartbeat(ctx, l.db, run)
	defer l.release(ctx)
	l.index = newIndexer(l)
	l.recoverRuns(ctx, reclaimed)
	if err := l.prepare(ctx); err != nil {
		return err
	}
	return l.spawnAndFinish(ctx)
}

// noteOffline leaves a note for `ai-memory ledger sync` when this run is
// recorded in the data home's own ledger because the user works offline
// from a shared one; working with the shared one, it says when this
// machine still owes it something.
func (l *launch) noteOffline() {
	off, _ := ledger.Offline(l.env.Getenv)
	shared, _, err := ledger.Choose(l.env.Getenv, "")
	if err != nil || shared.Location == "" {
		return
	}
	if !off {
		if j, o, _ := ledgersync.Pending(l.db.Home()); j+o > 0 {
			say(l.env.Stderr, "%d run journal(s) and %d offline run(s) of this machine are not in the shared ledger yet; `ai-memory ledger sync` sends them", j, o)
		}
		return
	}
	if err := ledgersync.NoteOffline(l.db.Home(), l.run); err != nil {
		say(l.env.Stderr, "could not note this offline run for `ai-memory ledger sync` (%v); copy it later with `ai-memory ledger push`", err)
		return
	}
	say(l.env.Stderr, "offline: this run is recorded in this machine's ledger; `ai-memory ledger sync` sends it to %s", ledger.HidePassword(shared.Location))
}

func (l *launch) selectWorkstream(ctx context.Context) error {
	id, err := repo.Identify(l.env.Dir)
	if err != nil {
		return wrapperError("identify repository", err)
	}
	l.id = id
	sel := ledger.Selector{Name: l.o.Workstream}
	if l.o.New != "" {
		sel = ledger.Selector{Name: l.o.New, Create: true}
	}
	scope, err := scopeOf(ctx, l.db, id)
	if err != nil {
		return err
	}
	ws, err := l.db.SelectWorkstream(ctx, scope, sel)
	if err != nil {
		return &Error{Code: CodeUsage, Err: err}
	}
	l.ws = ws
	return nil
}

// prepare decides the native session, renders the packet and builds the
// plan. Any failure here cancels the lease (release sees closed == false).
func (l *launch) prepare(ctx context.Context) error {
	c, err := l.decide(ctx)
	if err != nil {
		return err
	}
	l.choice = c
	l.mcp = l.mcpServer()
	if l.packet, err = l.buildPacket(ctx); err != nil {
		return err
	}
	return l.buildPlan()
}

func (l *launch) buildPlan() error {
	l.runDir = filepath.Join(l.db.Home(), "runs", l.run.ID)
	if err := os.MkdirAll(l.runDir, 0o700); err != nil {
		return wrapperError("run directory", err)
	}
	d := harness.Decision{
		Yolo: l.o.Yolo || l.intent.Yolo, Resume: l.choice.resume, NewSessionID: uuid.NewString(),
		Packet: l.packet.text, RunDir: l.runDir,
		HookCommand: []string{l.env.Self, "hook", l.h.Name},
		Session:     l.lookupSession,
		Getenv:      l.env.Getenv,
		Executable:  l.exe,
		MCP:         l.mcp,
	}
	plan, err := l.h.Planner.Build(l.intent, d)
	if err != nil {
		return &Error{Code: CodeUsage, Err: err}
	}
	for _, f := range plan.Files {
		if err := os.WriteFile(f.Path, []byte(f.Content), 0o600); err != nil {
			return wrapperError("write launch file", err)
		}
	}
	l.plan = plan
	return nil
}

// release closes the run on every path: a run that never reached finish is
// cancelled so the next launcher does not wait for the lease to lapse.
func (l *launch) release(ctx context.Context) {
	if l.hb != nil {
		l.hb.stop()
	}
	if l.runDir != "" {
		os.RemoveAll(l.runDir)
	}
	if l.closed {
		return
	}
	ctx = context.WithoutCancel(ctx)
	if err := l.db.CancelRun(ctx, l.run.ID); err != nil {
		say(l.env.Stderr, "could not release the workstream lease (%v); it expires within 90 s", err)
	}
}

// childEnv is the agent's environment: ours, minus blank store overrides,
// plus the plan's variables and the AI_MEMORY_* run identity.
func (l *launch) childEnv() []string {
	extra := map[string]string{
		"AI_MEMORY_RUN_ID":        l.run.ID,
		"AI_MEMORY_WORKSTREAM_ID": l.ws.ID,
		"AI_MEMORY_HARNESS":       l.h.Name,
	}
	if l.plan.SessionID != "" {
		extra["AI_MEMORY_NATIVE_SESSION_ID"] = l.plan.SessionID
	}
	for k, v := range l.plan.Env {
		extra[k] = v
	}
	return mergeEnv(l.env.Environ, extra, harness.StoreEnv())
}

func (l *launch) spawnAndFinish(ctx context.Context) error {
	for _, n := range append(l.choice.notices, l.plan.Notices...) {
		say(l.env.Stderr, "%s", n)
	}
	if l.packet.text != "" {
		say(l.env.Stderr, "%s", l.packet.summary)
	}
	if l.plan.SessionID == "" {
		l.before = l.recentSessions()
	}
	proc, err := agentproc.Start(agentproc.Spec{
		Path: l.exe, Args: l.plan.Args, Env: l.childEnv(), Dir: l.env.Dir,
		Stdin: l.env.Stdin, Stdout: l.env.Stdout, Stderr: l.env.Stderr,
		PTY: usePTY(l.env, l.intent.Interactive),
	})
	if err != nil {
		l.finishFailedStart(ctx, err)
		return startError(err)
	}
	defer proc.Restore()
	// Everything below runs after the agent started: it adds nothing to
	// the agent's start-up time.
	l.index.hold()
	l.claimSession(ctx)
	l.index.start(l.plan.SessionID)
	if err := l.db.SetRunSync(ctx, l.run.ID, l.packet.after, l.packet.through); err != nil {
		l.index.say(fmt.Sprintf("could not record the handoff range: %v", err))
	}
	l.hb.kick() // first renewal right after spawn
	l.live = startLive(ctx, l)
	st, werr := proc.Wait()
	proc.Restore()
	l.live.stop()
	if werr != nil {
		say(l.env.Stderr, "waiting for %s failed: %v", l.h.Name, werr)
	}
	if err := l.finish(ctx, st); err != nil {
		say(l.env.Stderr, "%v", err)
	}
	if st.Code == 0 && werr != nil {
		return wrapperError("wait for agent", werr)
	}
	return exitStatus(st.Code)
}

// claimSession records the native id the plan injected on the run before
// the index record is written: the live lease bound to that id is what
// keeps the record active when another agent's `sessions start` checks it,
// and Claude Code writes no transcript (so nothing links it) until the
// first prompt. A session still unknown stays `pending` in the index.
func (l *launch) claimSession(ctx context.Context) {
	if l.plan.SessionID == "" {
		return
	}
	if err := l.db.SetRunSession(ctx, l.run.ID, l.plan.SessionID); err != nil {
		l.index.say(fmt.Sprintf("could not record the run's session id: %v", err))
	}
}

func (l *launch) finishFailedStart(ctx context.Context, err error) {
	ctx = context.WithoutCancel(ctx)
	l.appendNote(ctx, "", fmt.Sprintf("native process could not be started: %v", err))
	l.index.interrupted("")
	if ferr := l.db.FinishRun(ctx, l.run.ID, nil); ferr == nil {
		l.closed = true
	}
}

// noteLosses remembers an import's loss notes for the run's annotation:
// the live imports and the final one each see only their own records.
func (l *launch) noteLosses(notes []string) {
	l.lossMu.Lock()
	defer l.lossMu.Unlock()
	if l.losses == nil {
		l.losses = map[string]bool{}
	}
	for _, n := range notes {
		l.losses[n] = true
	}
}

func (l *launch) lossNotes() []string {
	l.lossMu.Lock()
	defer l.lossMu.Unlock()
	out := make([]string, 0, len(l.losses))
	for n := range l.losses {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
