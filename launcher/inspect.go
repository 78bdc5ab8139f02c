package launcher

import (
	"context"
	"fmt"

	"github.com/ai-memory/ai-memory/handoff"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/repo"
)

// HandoffPreview is what the next launch of a harness would receive.
type HandoffPreview struct {
	Harness         string `json:"harness"`
	WorkstreamID    string `json:"workstream_id"`
	Workstream      string `json:"workstream"`
	NativeSessionID string `json:"native_session_id,omitempty"`
	After           int64  `json:"after"`
	Through         int64  `json:"through"`
	Events          int    `json:"events"`
	Packet          string `json:"packet"`
}

// PreviewHandoff renders, without changing anything, the packet the next
// `ai-memory run <harness>` in this worktree would deliver. An empty
// harness means the workstream's most recently linked one. With no ledger
// or no workstream yet it returns the empty preview (Harness set when
// given) and an error matching ErrNothingYet; it never creates a ledger.
func PreviewHandoff(ctx context.Context, harnessName, workstream string, env Env) (HandoffPreview, error) {
	env, err := env.withDefaults()
	if err != nil {
		return HandoffPreview{}, err
	}
	if harnessName != "" {
		h, err := lookupHarness(harnessName)
		if err != nil {
			return HandoffPreview{}, err
		}
		harnessName = h.Name
	}
	empty := HandoffPreview{Harness: harnessName}
	if !ledgerExists(env) {
		return empty, nothingYet{"no ai-memory ledger on this machine yet; start with: " + suggestions()}
	}
	id, err := repo.Identify(env.Dir)
	if err != nil {
		return HandoffPreview{}, wrapperError("identify repository", err)
	}
	db, err := openLedger(env)
	if err != nil {
		return HandoffPreview{}, err
	}
	defer db.Close()
	ws, err := findWorkstream(ctx, db, id, workstream)
	if err != nil {
		return empty, err
	}
	name, target, err := handoffTarget(ctx, db, ws, harnessName)
	if err != nil {
		return HandoffPreview{}, err
	}
	in, err := PacketInput(ctx, db, ws, name, target)
	if err != nil {
		return HandoffPreview{}, wrapperError("build handoff packet", err)
	}
	return HandoffPreview{Harness: name, WorkstreamID: ws.ID, Workstream: ws.Name, NativeSessionID: target,
		After: in.After, Through: in.Through, Events: len(in.Events), Packet: handoff.Render(in)}, nil
}

func findWorkstream(ctx context.Context, db ledger.Ledger, id repo.Identity, name string) (ledger.Workstream, error) {
	scope, err := scopeOf(ctx, db, id)
	if err != nil {
		return ledger.Workstream{}, err
	}
	if name == "" {
		ws, ok, err := db.CurrentWorkstream(ctx, scope)
		if err != nil {
			return ws, wrapperError("read workstream", err)
		}
		if !ok {
			return ws, nothingYet{"no workstream in this worktree yet; start with: " + suggestions()}
		}
		return ws, nil
	}
	all, err := db.ListWorkstreams(ctx, scope)
	if err != nil {
		return ledger.Workstream{}, wrapperError("list workstreams", err)
	}
	for _, w := range all {
		if w.Name == name {
			return w.Workstream, nil
		}
	}
	return ledger.Workstream{}, &Error{Code: CodeUsage, Err: fmt.Errorf("workstream '%s' not found; list them with: ai-memory workstreams", name)}
}

// handoffTarget resolves the harness (name is canonical or "") and the
// native session its next launch would resume ("" = a fresh session).
func handoffTarget(ctx context.Context, db ledger.Ledger, ws ledger.Workstream, name string) (string, string, error) {
	if name != "" {
		link, ok, err := db.CurrentLink(ctx, ws.ID, name)
		if err != nil || !ok {
			return name, "", err
		}
		return name, link.NativeSessionID, nil
	}
	links, err := db.Links(ctx, ws.ID)
	if err != nil {
		return "", "", wrapperError("read session links", err)
	}
	for _, lk := range links {
		if lk.Current && lk.Machine == db.Machine() { // another machine's session is not resumable here
			return lk.Harness, lk.NativeSessionID, nil
		}
	}
	return "", "", usageErrorf("no harness linked to workstream '%s' yet; pass --harness NAME", ws.Name)
}
