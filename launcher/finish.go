package launcher

import (
	"context"
	"strings"

	"github.com/ai-memory/ai-memory/agentproc"
	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/repo"
	"github.com/ai-memory/ai-memory/transcript"
)

func (l *launch) importer() *Importer {
	return &Importer{DB: l.db, WorkstreamID: l.ws.ID, RunID: l.run.ID}
}

// bindSession records that this run's native session exists: the run and
// the workstream link point at it, and the session index learns its id.
// The writes must complete even when the live import that found the
// session is being stopped (its context cancelled as the agent exits): the
// caller then counts the session as bound and does not bind it again.
func (l *launch) bindSession(ctx context.Context, s transcript.Session) {
	ctx = context.WithoutCancel(ctx)
	l.db.SetRunSession(ctx, l.run.ID, s.ID)
	l.db.LinkSession(ctx, l.ws.ID, l.h.Name, s.ID)
	l.index.bind(s.ID)
}

// finish runs after the agent exited and the terminal is restored: import
// the tail, record checkpoint and losses, settle the handoff cursor, close
// the run and say what was saved.
func (l *launch) finish(ctx context.Context, st agentproc.Status) error {
	ctx = context.WithoutCancel(ctx)
	known, found, notices := l.live.stop()
	l.index.flush()
	for _, n := range notices {
		say(l.env.Stderr, "%s", n)
	}
	sess, ok := l.settleSession(known, found)
	var stats ImportStats
	var notes []string
	if ok {
		if !found || known.ID != sess.ID {
			l.bindSession(ctx, sess) // the live import did not see it
		}
		var err error
		stats, err = l.importer().Import(ctx, l.src, sess)
		if err != nil {
			notes = append(notes, "native transcript import failed: "+err.Error())
			say(l.env.Stderr, "could not import the rest of the %s transcript (%v); the transcript is untouched: retry with `ai-memory import --session %s`", l.h.Name, err, sess.ID)
		}
		l.noteLosses(stats.LossNotes)
		notes = append(notes, l.lossNotes()...)
	} else {
		notes = append(notes, "native session id could not be discovered; transcript was not imported")
	}
	sid := sess.ID
	l.saved.Add(int64(stats.Added + l.appendNote(ctx, sid, strings.Join(notes, "\n")) + l.appendCheckpoint(ctx, sid, st.Code)))
	l.settleDelivery(ctx, sess, ok)
	if st.Signal != 0 {
		l.index.interrupted(sid)
	} else {
		l.index.end(sid)
	}
	code := st.Code
	if err := l.db.FinishRun(ctx, l.run.ID, &code); err != nil {
		return wrapperError("close run", err)
	}
	l.closed = true
	say(l.env.Stderr, "workstream '%s' saved %d new event(s)", l.ws.Name, l.saved.Load())
	return nil
}

// appendNote records one annotation event listing import losses.
func (l *launch) appendNote(ctx context.Context, sid, text string) int {
	if strings.TrimSpace(text) == "" {
		return 0
	}
	return l.appendOwn(ctx, ledger.EventInput{
		Harness: l.h.Name, NativeSessionID: sid, Kind: ledger.KindAnnotation,
		SourceRecordID: "run:" + l.run.ID + ":losses", Content: "Import notes:\n" + text,
		Metadata: map[string]any{"loss_count": strings.Count(text, "\n") + 1},
	})
}

// appendCheckpoint records the repository state after the run.
func (l *launch) appendCheckpoint(ctx context.Context, sid string, exit int) int {
	cp := repo.TakeCheckpoint(ctx, l.id.Root)
	return l.appendOwn(ctx, ledger.EventInput{
		Harness: l.h.Name, NativeSessionID: sid, Kind: ledger.KindCheckpoint,
		SourceRecordID: "run:" + l.run.ID + ":checkpoint", Content: cp.Text(),
		Metadata: map[string]any{"exit_code": exit},
	})
}

func (l *launch) appendOwn(ctx context.Context, e ledger.EventInput) int {
	e.OccurredAt = l.env.Now()
	res, err := l.db.Append(ctx, ledger.Batch{WorkstreamID: l.ws.ID, RunID: l.run.ID, Events: []ledger.EventInput{e}})
	if err != nil {
		say(l.env.Stderr, "could not record %s: %v", e.Kind, err)
		return 0
	}
	return res.Added
}

// settleDelivery advances the session's delivery cursor only when nothing
// was owed or delivery was confirmed; otherwise the packet is sent again
// next time (duplication is acceptable, loss is not).
func (l *launch) settleDelivery(ctx context.Context, sess transcript.Session, observed bool) {
	if !observed {
		if l.packet.text != "" {
			say(l.env.Stderr, "%s did not start a session; the handoff packet will be sent again next time", l.h.Name)
		}
		return
	}
	owed := l.packet.text != ""
	confirmed := l.plan.Confirm != nil && l.plan.Confirm.Confirmed(sess.ID)
	if owed && !confirmed {
		say(l.env.Stderr, "%s did not confirm receipt of the handoff packet (%d events); it will be sent again next time", l.h.Name, l.packet.events)
		return
	}
	if owed {
		l.db.MarkContextDelivered(ctx, l.run.ID)
	}
	latest, err := l.db.LatestSequence(ctx, l.ws.ID)
	if err != nil {
		return
	}
	if err := l.db.AdvanceDelivery(ctx, l.ws.ID, l.h.Name, sess.ID, latest); err != nil {
		say(l.env.Stderr, "could not record handoff delivery: %v", err)
	}
}

// recoverRuns imports what runs of dead launchers left behind and marks
// their session-index records interrupted. A run of another machine is
// left alone: its transcript and session index are in that machine's
// stores, and its tail is imported there, from its link's source cursor,
// when that machine resumes the session.
func (l *launch) recoverRuns(ctx context.Context, reclaimed []ledger.Run) {
	for _, r := range reclaimed {
		if r.Owner.Machine != l.db.Machine() {
			continue
		}
		l.index.markInterrupted(r.Harness, r.NativeSessionID)
		if r.NativeSessionID == "" {
			continue
		}
		h, ok := harness.Lookup(r.Harness)
		if !ok {
			continue
		}
		src := h.Source
		s, ex, _ := src.Find(l.env.transcriptEnv(), r.NativeSessionID)
		if ex != transcript.Present {
			continue
		}
		im := &Importer{DB: l.db, WorkstreamID: l.ws.ID, RunID: r.ID}
		st, err := im.Import(ctx, src, s)
		if err != nil {
			say(l.env.Stderr, "could not import the rest of interrupted %s session %s: %v", r.Harness, short(s.ID), err)
			continue
		}
		if st.Added > 0 {
			say(l.env.Stderr, "imported %d event(s) left behind by an interrupted %s run", st.Added, r.Harness)
		}
	}
}
