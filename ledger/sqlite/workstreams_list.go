package sqlite

import (
	"context"
	"sort"

	"github.com/ai-memory/ai-memory/ledger"
)

// ListWorkstreams lists the scope's workstreams, most recently selected first.
func (db *DB) ListWorkstreams(ctx context.Context, s ledger.Scope) ([]ledger.WorkstreamSummary, error) {
	rows, err := db.sql.QueryContext(ctx, sqlListWorkstreams, s.RepoFingerprint, s.WorktreeFingerprint)
	if err != nil {
		return nil, db.wrap(err, "list workstreams")
	}
	defer rows.Close()
	var out []ledger.WorkstreamSummary
	for rows.Next() {
		var sum ledger.WorkstreamSummary
		var c, sel, u int64
		if err := rows.Scan(&sum.ID, &sum.Name, &sum.RepoFingerprint, &sum.WorktreeFingerprint, &sum.Cwd,
			&c, &sel, &u, &sum.Events, &sum.LastHarness); err != nil {
			return nil, db.wrap(err, "list workstreams")
		}
		sum.CreatedAt, sum.SelectedAt, sum.UpdatedAt = fromMicro(c), fromMicro(sel), fromMicro(u)
		sum.Selected = len(out) == 0
		out = append(out, sum)
	}
	if err := rows.Err(); err != nil {
		return nil, db.wrap(err, "list workstreams")
	}
	rows.Close()
	for i := range out {
		if out[i].Harnesses, err = db.harnesses(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (db *DB) harnesses(ctx context.Context, wsID string) ([]string, error) {
	hs, err := queryStrings(ctx, db.sql, sqlWorkstreamHarnesses, wsID)
	sort.Strings(hs)
	return hs, db.wrap(err, "list harnesses")
}

// Established reports whether the workstream has history worth continuing:
// any native-session link, or any event of kind message, tool_call,
// tool_result or compaction (checkpoints and annotations alone do not count,
// so a launch that died before the agent produced anything keeps it empty).
func (db *DB) Established(ctx context.Context, wsID string) (bool, error) {
	var ok bool
	err := db.sql.QueryRowContext(ctx, sqlEstablished, wsID).Scan(&ok)
	return ok, db.wrap(err, "check workstream history")
}
