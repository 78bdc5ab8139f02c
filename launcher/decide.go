package launcher

import (
	"context"
	"fmt"

	"github.com/ai-memory/ai-memory/agentproc"
	"github.com/ai-memory/ai-memory/transcript"
)

// choice is the native session decision of one launch.
type choice struct {
	resume  string             // native session to resume; "" = fresh (or the user's own selector)
	session transcript.Session // resume's transcript when already looked up (Path "" otherwise)
	target  string             // session whose delivery cursor bounds the packet ("" = new session)
	notices []string           // one-line notices printed before the agent starts
}

// decide picks the native session: the user's own selector wins; then the
// linked session (checked in the native store); then, for an empty
// workstream only, adoption of an existing checkout session; else fresh.
func (l *launch) decide(ctx context.Context) (choice, error) {
	if l.intent.Selector {
		return choice{target: l.intent.SelectedID}, nil
	}
	if l.o.New != "" {
		return choice{}, nil
	}
	if l.o.Fresh {
		return choice{notices: []string{fmt.Sprintf("starting a fresh %s session in workstream '%s'", l.h.Name, l.ws.Name)}}, nil
	}
	link, ok, err := l.db.CurrentLink(ctx, l.ws.ID, l.h.Name)
	if err != nil {
		return choice{}, wrapperError("read session link", err)
	}
	if ok {
		return l.checkLinked(link.NativeSessionID), nil
	}
	established, err := l.db.Established(ctx, l.ws.ID)
	if err != nil {
		return choice{}, wrapperError("read workstream", err)
	}
	if established {
		// A harness joining an established workstream starts fresh and
		// receives the history; it never adopts an unrelated old session.
		return choice{}, nil
	}
	if l.adopt != "" {
		return choice{resume: l.adopt, target: l.adopt,
			notices: []string{fmt.Sprintf("continuing %s session %s of this checkout", l.h.Name, short(l.adopt))}}, nil
	}
	if l.interactive() {
		return l.choose(ctx)
	}
	return choice{}, nil
}

// checkLinked applies the three-way orphan check before resuming.
func (l *launch) checkLinked(id string) choice {
	sess, ex, err := l.src.Find(l.env.transcriptEnv(), id)
	switch ex {
	case transcript.Present:
		return choice{resume: id, target: id, session: sess}
	case transcript.Absent:
		return choice{notices: []string{fmt.Sprintf(
			"linked %s session %s is missing from its native store; starting fresh and repointing workstream '%s'",
			l.h.Name, short(id), l.ws.Name)}}
	default:
		why := "store unreadable"
		if err != nil {
			why = err.Error()
		}
		return choice{resume: id, target: id, notices: []string{fmt.Sprintf(
			"could not verify linked %s session %s (%s); resuming it anyway. Use --fresh to start a new session",
			l.h.Name, short(id), why)}}
	}
}

// interactive reports whether a person can answer the adoption chooser.
func (l *launch) interactive() bool {
	return l.intent.Interactive && agentproc.IsTerminal(l.env.Stdin) && agentproc.IsTerminal(l.env.Stderr)
}

func short(id string) string {
	if len(id) > 64 {
		return id[:64] + "..."
	}
	return id
}
