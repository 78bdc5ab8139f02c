package launcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/ai-memory/ai-memory/agentproc"
	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/repo"
	"github.com/ai-memory/ai-memory/transcript"
)

// ImportOptions are the flags of `ai-memory import`.
type ImportOptions struct {
	Harness    string // "" = every harness
	Session    string // one native session id; "" = all sessions of this checkout
	Workstream string // "" = the selected workstream
	Link       bool   // make the imported session the workstream's current one
	// AnyCheckout imports Session even when it was recorded in another
	// directory (a moved or renamed checkout); only with Session.
	AnyCheckout bool
}

// maxBackfillSessions bounds one backfill (newest first).
const maxBackfillSessions = 2000

// ImportSessions backfills existing native sessions of this checkout into
// the selected workstream, read-only and idempotently, under the workstream
// lease so that it never interleaves with a running launcher.
func ImportSessions(ctx context.Context, o ImportOptions, env Env) ([]ImportStats, error) {
	env, err := env.withDefaults()
	if err != nil {
		return nil, err
	}
	if o.AnyCheckout && o.Session == "" {
		return nil, usageErrorf("--any-checkout works only with --session ID")
	}
	srcs, err := importSources(o.Harness)
	if err != nil {
		return nil, err
	}
	id, err := repo.Identify(env.Dir)
	if err != nil {
		return nil, wrapperError("identify repository", err)
	}
	db, err := openLedger(env)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	scope, err := scopeOf(ctx, db, id)
	if err != nil {
		return nil, err
	}
	ws, err := db.SelectWorkstream(ctx, scope, ledger.Selector{Name: o.Workstream})
	if err != nil {
		return nil, &Error{Code: CodeUsage, Err: err}
	}
	run, _, err := acquire(ctx, db, ws.ID, importRunHarness, env.Stderr)
	if err != nil {
		return nil, err
	}
	hb := startHeartbeat(ctx, db, run)
	stats, ierr := backfill(ctx, db, ws, run, srcs, o, env, id.Root)
	hb.stop()
	if ierr != nil {
		db.CancelRun(context.WithoutCancel(ctx), run.ID)
		return stats, ierr
	}
	if err := db.FinishRun(ctx, run.ID, nil); err != nil {
		return stats, wrapperError("close import run", err)
	}
	return stats, nil
}

func importSources(name string) ([]transcript.Source, error) {
	if name == "" {
		var all []transcript.Source
		for _, h := range harness.All() {
			all = append(all, h.Source)
		}
		return all, nil
	}
	h, err := lookupHarness(name)
	if err != nil {
		return nil, err
	}
	return []transcript.Source{h.Source}, nil
}

func backfill(ctx context.Context, db ledger.Ledger, ws ledger.Workstream, run ledger.Run, srcs []transcript.Source, o ImportOptions, env Env, root string) ([]ImportStats, error) {
	im := &Importer{DB: db, WorkstreamID: ws.ID, RunID: run.ID}
	if agentproc.IsTerminal(env.Stderr) {
		im.Progress = progressPrinter(env.Stderr)
	}
	var out []ImportStats
	var skipped error // unreadable transcripts: import the rest, then say so
	found := false
	for _, src := range srcs {
		sessions, err := sessionsToImport(src, o, env, root)
		if errors.Is(err, transcript.ErrUnreadable) && skipped == nil {
			skipped, err = err, nil
		}
		if err != nil {
			return out, err
		}
		found = found || len(sessions) > 0
		restore := bulkGC(totalSize(sessions))
		var linkErr error
		_, err = im.ImportAll(ctx, src, sessions, func(i int, st ImportStats) error {
			out = append(out, st)
			if o.Link && i == 0 {
				_, linkErr = db.LinkSession(ctx, ws.ID, src.Harness(), st.NativeSessionID)
			}
			return linkErr
		})
		restore()
		if linkErr != nil {
			return out, wrapperError("link session", linkErr)
		}
		if err != nil {
			return out, wrapperError("import", err)
		}
	}
	if im.Progress != nil {
		fmt.Fprint(env.Stderr, "\r\033[K")
	}
	if skipped != nil {
		return out, &Error{Code: 1, Err: skipped}
	}
	if o.Session != "" && !found {
		return out, &Error{Code: 1, Err: fmt.Errorf("session %s not found in any harness store; list this checkout's sessions with: ai-memory import --all", o.Session)}
	}
	return out, nil
}

// totalSize is the size of sessions together. A backfill of many small
// sessions is a bulk import as much as one large session is, so it gets
// the bulk GC settings (see bulkGC) for all of them, not per session.
func totalSize(sessions []transcript.Session) int64 {
	var n int64
	for _, s := range sessions {
		n += s.Size
	}
	return n
}

// sessionsToImport returns the sessions to import of one source, newest first.
func sessionsToImport(src transcript.Source, o ImportOptions, env Env, root string) ([]transcript.Session, error) {
	tenv := env.transcriptEnv()
	if o.Session != "" {
		s, ex, err := src.Find(tenv, o.Session)
		if ex == transcript.Unknown && err != nil {
			return nil, &Error{Code: CodeWrapper, Err: err} // names the file and what is wrong
		}
		if ex != transcript.Present {
			return nil, nil
		}
		if !o.AnyCheckout {
			if err := checkOwned(s, root); err != nil {
				return nil, err
			}
		}
		return []transcript.Session{s}, nil
	}
	ss, err := src.List(tenv, root, maxBackfillSessions) // newest first
	if errors.Is(err, transcript.ErrUnreadable) {
		return ss, err
	}
	if err != nil {
		return nil, wrapperError("list "+src.Harness()+" sessions", err)
	}
	return ss, nil
}

// checkOwned applies discovery's rule to a session named by id: it must
// have been recorded in this checkout (symlinks resolved on both sides;
// unresolvable means no), so `import --session` cannot pull another
// repository's history into this workstream by accident.
func checkOwned(s transcript.Session, root string) error {
	here, err1 := filepath.EvalSymlinks(root)
	there, err2 := filepath.EvalSymlinks(s.Cwd)
	if err1 == nil && err2 == nil && here == there {
		return nil
	}
	where := "an unknown directory"
	if s.Cwd != "" {
		where = "another directory (" + s.Cwd + ")"
	}
	return &Error{Code: 1, Err: fmt.Errorf("%s session %s was recorded in %s, not in this checkout; import it from there, or pass --any-checkout to import it here anyway", s.Harness, s.ID, where)}
}

// progressPrinter draws a one-line progress bar for long imports.
func progressPrinter(w io.Writer) func(transcript.Session, int64) {
	return func(s transcript.Session, off int64) {
		pct := 100
		if s.Size > 0 && off < s.Size {
			pct = int(off * 100 / s.Size)
		}
		bar := make([]byte, 20)
		for i := range bar {
			bar[i] = ' '
			if i < pct/5 {
				bar[i] = '#'
			}
		}
		fmt.Fprintf(w, "\r\033[Kimporting %s %s [%s] %3d%%", s.Harness, short(s.ID), bar, pct)
	}
}
