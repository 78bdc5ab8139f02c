package launcher

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/repo"
	"github.com/ai-memory/ai-memory/transcript"
)

// runBare continues the latest usable session: the harness most recently
// linked to this worktree's workstream whose executable is available; for
// an empty workstream, the newest checkout-local session among installed
// harnesses (adopted). With nothing to continue it creates nothing.
func runBare(ctx context.Context, o Options, env Env) error {
	if len(o.Args) > 0 || o.Executable != "" {
		return usageErrorf("native harness arguments and --executable require an explicit harness: ai-memory run <harness> [args...]")
	}
	id, err := repo.Identify(env.Dir)
	if err != nil {
		return wrapperError("identify repository", err)
	}
	name, err := linkedHarness(ctx, o, env, id)
	if err != nil {
		return err
	}
	if name != "" {
		h, _ := harness.Lookup(name)
		return runHarness(ctx, o, env, h, "")
	}
	s, ok := newestLocalSession(env, id.Root)
	if !ok {
		return &Error{Code: 1, Err: fmt.Errorf("nothing to continue in this checkout; start a session with one of: %s", suggestions())}
	}
	h, _ := harness.Lookup(s.Harness)
	say(env.Stderr, "continuing the newest %s session of this checkout", s.Harness)
	adopt := s.ID
	if o.Fresh || o.New != "" {
		adopt = ""
	}
	return runHarness(ctx, o, env, h, adopt)
}

// linkedHarness returns the most recently linked harness of the selected
// workstream whose executable is available, "" if none.
func linkedHarness(ctx context.Context, o Options, env Env, id repo.Identity) (string, error) {
	if o.New != "" || !ledgerExists(env) {
		return "", nil
	}
	db, err := openLedger(env)
	if err != nil {
		return "", err
	}
	defer db.Close()
	ws, err := bareWorkstream(ctx, db, id, o.Workstream)
	if err != nil || ws.ID == "" {
		return "", err
	}
	links, err := db.Links(ctx, ws.ID)
	if err != nil {
		return "", wrapperError("read session links", err)
	}
	for _, lk := range links {
		if h, ok := harness.Lookup(lk.Harness); ok && lk.Current && available(h, env.LookPath) {
			return h.Name, nil
		}
	}
	return "", nil
}

// newestLocalSession scans every installed harness's store for the newest
// session recorded in this checkout.
func newestLocalSession(env Env, root string) (transcript.Session, bool) {
	var all []transcript.Session
	for _, h := range harness.All() {
		if !available(h, env.LookPath) {
			continue
		}
		s, err := h.Source.List(env.transcriptEnv(), root, 1)
		if err == nil && len(s) > 0 {
			all = append(all, s[0])
		}
	}
	if len(all) == 0 {
		return transcript.Session{}, false
	}
	sort.SliceStable(all, func(i, j int) bool {
		if !all[i].ModTime.Equal(all[j].ModTime) {
			return all[i].ModTime.After(all[j].ModTime)
		}
		return all[i].Harness < all[j].Harness
	})
	return all[0], true
}

func suggestions() string {
	var s []string
	for _, n := range harness.Names() {
		s = append(s, "ai-memory run "+n)
	}
	return strings.Join(s, ", ")
}

// bareWorkstream is the named workstream (which must exist) or the selected
// one; a worktree without any workstream yields the zero value, no error.
func bareWorkstream(ctx context.Context, db ledger.Ledger, id repo.Identity, name string) (ledger.Workstream, error) {
	if name != "" {
		return findWorkstream(ctx, db, id, name)
	}
	scope, err := scopeOf(ctx, db, id)
	if err != nil {
		return ledger.Workstream{}, err
	}
	ws, _, err := db.CurrentWorkstream(ctx, scope)
	if err != nil {
		return ws, wrapperError("read workstream", err)
	}
	return ws, nil
}
