package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledgersync"
	"github.com/ai-memory/ai-memory/sessionindex"
)

// ledgerChecks checks the ledger through its Health report, then this
// project's session index (whose liveness check reads the ledger). The
// ledger is opened for inspection only: doctor never migrates or writes.
func ledgerChecks(ctx context.Context, env doctorEnv) []check {
	w, err := ledger.DefaultWhere(env.getenv)
	if err != nil {
		return []check{newCheck(harness.LevelFail, "ledger", err.Error(), nil)}
	}
	return append(ledgerHealthChecks(ctx, env, w), syncChecks(w.Home)...)
}

// syncChecks warns about what this data home owes a shared ledger (run
// journals kept during an outage, offline runs); nothing when nothing is.
func syncChecks(home string) []check {
	j, o, err := ledgersync.Pending(home)
	if err != nil {
		return []check{newCheck(harness.LevelWarn, "ledger.sync", err.Error(), nil)}
	}
	if j+o == 0 {
		return nil
	}
	msg := fmt.Sprintf("%d run journal(s) and %d offline run(s) in %s are not in the shared ledger yet; send them with `ai-memory ledger sync`", j, o, ledgersync.Dir(home))
	return []check{newCheck(harness.LevelWarn, "ledger.sync", msg, map[string]any{"journals": j, "offline_runs": o})}
}

func ledgerHealthChecks(ctx context.Context, env doctorEnv, w ledger.Where) []check {
	ok, path, err := ledger.Exists(ctx, w)
	if !ok && err == nil {
		msg := "no ledger yet at " + path + " (the first `ai-memory run` creates it)"
		return append([]check{newCheck(harness.LevelInfo, "ledger", msg, map[string]any{"path": path})}, indexCheck(env, noRuns))
	}
	db, err := ledger.OpenForCheck(ctx, w)
	if err != nil {
		return append([]check{newCheck(harness.LevelFail, "ledger", err.Error(), map[string]any{"path": path})}, indexCheck(env, unknownRuns))
	}
	defer db.Close()
	h, err := db.Health(ctx, ledger.HealthOptions{})
	out := []check{locationCheck(h), machineCheck(db.Machine(), w.Machine != ""), schemaCheck(h)}
	if err != nil {
		out = append(out, newCheck(harness.LevelFail, "ledger.health", err.Error(), nil))
	} else {
		out = append(out, integrityCheck(h), sizeCheck(h), leasesCheck(ctx, db, h, env.now))
	}
	return append(out, indexCheck(env, ledgerRuns(ctx, db)))
}

// locationCheck names the ledger; one this user cannot write fails, since
// every run records into it.
func locationCheck(h ledger.Health) check {
	data := map[string]any{"path": h.Location}
	if h.Unwritable != nil {
		return newCheck(harness.LevelFail, "ledger", fmt.Sprintf("%s is not writable by this user (%v); fix its owner or mode (chmod u+rw)", h.Location, h.Unwritable), data)
	}
	return newCheck(harness.LevelOK, "ledger", h.Location, data)
}

// machineCheck names the machine id this data home acts as: native
// sessions, their links and cursors, and lease probing are per machine.
func machineCheck(id string, fromEnv bool) check {
	if id == "" {
		return newCheck(harness.LevelInfo, "ledger.machine", "no machine id yet (the next `ai-memory run` makes one)", map[string]any{"id": ""})
	}
	from := "this data home's " + ledger.MachineFile
	if fromEnv {
		from = ledger.MachineEnv
	}
	return newCheck(harness.LevelOK, "ledger.machine", fmt.Sprintf("%s (from %s)", id, from), map[string]any{"id": id, "from_env": fromEnv})
}

func schemaCheck(h ledger.Health) check {
	data := map[string]any{"version": h.Schema, "known": h.KnownSchema}
	switch {
	case h.Schema > h.KnownSchema:
		return newCheck(harness.LevelFail, "ledger.schema", fmt.Sprintf("version %d is newer than this ai-memory knows (%d); upgrade ai-memory", h.Schema, h.KnownSchema), data)
	case h.Schema < h.KnownSchema:
		return newCheck(harness.LevelWarn, "ledger.schema", fmt.Sprintf("version %d, older than this ai-memory's %d: the next command that opens it upgrades it", h.Schema, h.KnownSchema), data)
	}
	return newCheck(harness.LevelOK, "ledger.schema", fmt.Sprintf("version %d (current)", h.Schema), data)
}

func integrityCheck(h ledger.Health) check {
	in := h.Integrity
	data := map[string]any{"check": in.Check, "complete": in.Complete, "problems": in.Problems, "took_ms": in.Took.Milliseconds()}
	took := in.Took.Round(10 * time.Millisecond).String()
	switch {
	case !in.Complete:
		return newCheck(harness.LevelWarn, "ledger.integrity", fmt.Sprintf("%s did not finish within %s; not checked", in.Check, took), data)
	case len(in.Problems) > 0:
		more := ""
		if len(in.Problems) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(in.Problems)-1)
		}
		return newCheck(harness.LevelFail, "ledger.integrity", fmt.Sprintf(
			"%s: %s%s; move ledger.db and its -wal and -shm files aside, then run `ai-memory ledger rebuild` (the segments hold the history)", in.Check, in.Problems[0], more), data)
	}
	return newCheck(harness.LevelOK, "ledger.integrity", fmt.Sprintf("%s passed in %s", in.Check, took), data)
}

// sizeCheck reports the whole data home: ledger, WAL, segments, the rest.
func sizeCheck(h ledger.Health) check {
	var total int64
	parts := map[string]any{}
	var words []string
	for _, p := range h.Sizes {
		total += p.Bytes
		parts[p.Name] = p.Bytes
		if p.Bytes > 0 {
			words = append(words, p.Name+" "+formatBytes(p.Bytes))
		}
	}
	return newCheck(harness.LevelOK, "ledger.size", fmt.Sprintf("%s (%s)", formatBytes(total), strings.Join(words, ", ")),
		map[string]any{"bytes": total, "parts": parts})
}

// leasesCheck lists the launchers running now; a lease whose process is
// gone is a warning (the next run of that workstream takes it over).
func leasesCheck(ctx context.Context, db ledger.Ledger, h ledger.Health, now time.Time) check {
	var words []string
	var list []map[string]any
	level := harness.LevelOK
	for _, l := range h.Leases {
		ws := l.WorkstreamID
		if w, err := db.WorkstreamByID(ctx, l.WorkstreamID); err == nil {
			ws = w.Name
		}
		w := fmt.Sprintf("%s in %s on %s:%d until %s", l.Harness, ws, l.Host, l.PID, l.Until.Local().Format("15:04:05"))
		if l.Stale {
			level = harness.LevelWarn
			w += " (process gone: the next run takes it over)"
		}
		words = append(words, w)
		list = append(list, map[string]any{"harness": l.Harness, "workstream_id": l.WorkstreamID, "host": l.Host, "pid": l.PID,
			"until": l.Until.UTC().Format(time.RFC3339), "stale": l.Stale})
	}
	data := map[string]any{"leases": list}
	if len(words) == 0 {
		return newCheck(level, "ledger.leases", "no live leases", map[string]any{"leases": []any{}})
	}
	return newCheck(level, "ledger.leases", plural(int64(len(words)), "live lease")+": "+strings.Join(words, "; "), data)
}

// indexCheck reads this project's session index: a file that does not
// parse is a failure; active records that no live run holds (the next
// `sessions start` marks them interrupted) are a warning.
// live says whether a live ai-memory run holds a record's session.
func indexCheck(env doctorEnv, live func(sessionindex.Record) bool) check {
	path := sessionindex.Path(env.project)
	data := map[string]any{"path": path}
	s := sessionindex.Store{Root: env.project}
	ix, err := s.Load()
	var ce *sessionindex.CorruptError
	switch {
	case errors.As(err, &ce):
		return newCheck(harness.LevelFail, "session-index", err.Error(), data)
	case err != nil:
		return newCheck(harness.LevelFail, "session-index", fmt.Sprintf("cannot read %s: %v", path, err), data)
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return newCheck(harness.LevelInfo, "session-index", "none in "+env.project+" (`ai-memory run` starts one in a git worktree)", data)
	}
	active, stale := 0, []string{}
	for _, r := range ix.Sessions {
		if r.Status != sessionindex.StatusActive {
			continue
		}
		active++
		if r.Identified() && !live(r) {
			stale = append(stale, r.ID)
		}
	}
	data["sessions"], data["active"], data["stale"] = len(ix.Sessions), active, stale
	detail := fmt.Sprintf("%s: %s, %d active", path, plural(int64(len(ix.Sessions)), "session"), active)
	if len(stale) > 0 {
		return newCheck(harness.LevelWarn, "session-index", fmt.Sprintf(
			"%s; no live run holds %s (the next `ai-memory sessions start` marks them interrupted, or: ai-memory sessions interrupt ID)", detail, strings.Join(stale, ", ")), data)
	}
	return newCheck(harness.LevelOK, "session-index", detail, data)
}

// noRuns is the liveness answer without a ledger: no run can be live.
func noRuns(sessionindex.Record) bool { return false }

// unknownRuns is the answer when the ledger cannot be read: no evidence
// either way, so nothing is called stale.
func unknownRuns(sessionindex.Record) bool { return true }

// ledgerRuns asks the ledger whether a live run holds a record's session;
// a ledger that cannot answer counts as live.
func ledgerRuns(ctx context.Context, db ledger.Ledger) func(sessionindex.Record) bool {
	return func(r sessionindex.Record) bool {
		ok, err := db.LiveRunForSession(ctx, r.Runtime, r.NativeSessionID)
		return ok || err != nil
	}
}

// formatBytes is a size for people: 512 B, 3.4 KB, 12.0 MB, 1.2 GB.
func formatBytes(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, suffix := float64(n), "KMGT"
	i := -1
	for f >= unit && i < len(suffix)-1 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f %cB", f, suffix[i])
}
