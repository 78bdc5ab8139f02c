package launcher

import (
	"context"
	"fmt"
	"strings"

	"github.com/ai-memory/ai-memory/handoff"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/transcript"
)

// packet is the handoff owed to the launched native session: the events
// after its delivery cursor up to the ledger end at launch.
type packet struct {
	text           string
	summary        string
	after, through int64
	events         int
}

func (l *launch) buildPacket(ctx context.Context) (packet, error) {
	in, err := PacketInput(ctx, l.db, l.ws, l.h.Name, l.choice.target)
	if err != nil {
		return packet{}, wrapperError("build handoff packet", err)
	}
	in.SearchTool, in.ReadTool = l.mcpToolName("search"), l.mcpToolName("read_events")
	p := packet{after: in.After, through: in.Through, events: len(in.Events)}
	p.text = handoff.Render(in)
	if p.text == "" {
		return p, nil
	}
	p.summary = handoff.Summary(in)
	return p, nil
}

// lookupSession finds a native session for the planner, reusing the lookup
// decide already made (a store scan, on the path before the agent starts).
func (l *launch) lookupSession(id string) (transcript.Session, bool) {
	if s := l.choice.session; id != "" && s.ID == id && s.Path != "" {
		return s, true
	}
	s, ex, _ := l.src.Find(l.env.transcriptEnv(), id)
	return s, ex == transcript.Present
}

// PacketInput collects the unseen range of target (a native session of
// harnessName; "" for a session that does not exist yet) in ws. Events the
// session produced itself are never handed back to it, and checkpoints and
// import notes are left to the dedicated checkpoint block.
func PacketInput(ctx context.Context, db ledger.Ledger, ws ledger.Workstream, harnessName, target string) (handoff.Input, error) {
	in := handoff.Input{WorkstreamID: ws.ID, WorkstreamName: ws.Name, Target: harnessName}
	through, err := db.LatestSequence(ctx, ws.ID)
	if err != nil {
		return in, err
	}
	in.Through = through
	if target != "" {
		link, ok, err := db.SessionLink(ctx, ws.ID, harnessName, target)
		if err != nil {
			return in, err
		}
		if ok {
			in.After = link.DeliveryCursor
		}
	}
	if in.After >= in.Through {
		in.After = in.Through
		return in, nil
	}
	evs, err := db.EventsInRange(ctx, ws.ID, in.After, in.Through, handoff.MaxEvents)
	if err != nil {
		return in, err
	}
	skipped := 0
	for _, e := range evs {
		ownEvent := target != "" && e.Harness == harnessName && e.NativeSessionID == target
		if ownEvent || e.Kind == ledger.KindCheckpoint || e.Kind == ledger.KindAnnotation {
			skipped++
			continue
		}
		he := handoffEvent(e)
		he.Order = int64(len(in.Events) + 1) // evs are in conversation order
		in.Events = append(in.Events, he)
	}
	in.Total = in.Through - in.After - int64(skipped)
	if len(in.Events) == 0 {
		in.Events = nil
		return in, nil
	}
	if cp, ok, err := db.LatestEvent(ctx, ws.ID, ledger.KindCheckpoint); err == nil && ok {
		e := handoffEvent(cp)
		in.Checkpoint = &e
	}
	return in, nil
}

func handoffEvent(e ledger.Event) handoff.Event {
	he := handoff.Event{
		Sequence: e.Sequence, Harness: e.Harness, Kind: string(e.Kind),
		Role: e.Role, Content: e.Content, OccurredAt: e.OccurredAt,
	}
	if e.Kind == ledger.KindToolResult {
		he.Status = ResultStatus(e.Metadata)
	}
	return he
}

// ResultStatus is the short note a tool result's heading carries: what the
// harness reported about the run (transcript.Meta* keys) when it is worth
// knowing: a failure, a cut output, a process left running. A clean exit
// says nothing.
func ResultStatus(meta map[string]any) string {
	var parts []string
	switch code, ok := meta[transcript.MetaExitCode].(float64); {
	case ok && code != 0:
		parts = append(parts, fmt.Sprintf("exit %d", int(code)))
	case meta["is_error"] == true:
		parts = append(parts, "failed")
	}
	if s, ok := meta[transcript.MetaSignal].(string); ok && s != "" {
		parts = append(parts, "signal "+s)
	}
	if meta[transcript.MetaRunning] == true {
		parts = append(parts, "still running")
	}
	if meta[transcript.MetaTruncated] == true {
		parts = append(parts, "output cut")
	}
	return strings.Join(parts, ", ")
}
