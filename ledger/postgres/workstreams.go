package postgres

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ai-memory/ai-memory/ledger"
)

// SelectWorkstream resolves sel in scope s (creating when the selector says
// so) and marks it selected, under the scope's advisory lock.
func (db *DB) SelectWorkstream(ctx context.Context, s ledger.Scope, sel ledger.Selector) (ledger.Workstream, error) {
	if err := ledger.ValidateScope(s); err != nil {
		return ledger.Workstream{}, err
	}
	name := strings.TrimSpace(sel.Name)
	if name != "" || sel.Create {
		if err := ledger.ValidateName(name); err != nil {
			return ledger.Workstream{}, err
		}
	}
	// Two round trips besides BEGIN and COMMIT: the lock with the lookup,
	// then the selection with the snapshot's reads (which hold the row).
	snap, err := db.withStateTx(ctx, func(t *tx) (string, error) {
		id, err := resolveSelector(ctx, t, s, name, sel.Create)
		if err != nil {
			return "", err
		}
		t.queue(sqlMarkSelected, t.now, s.Cwd, id, s.RepoFingerprint, s.WorktreeFingerprint)
		return id, nil
	})
	if err != nil {
		return ledger.Workstream{}, db.wrap(err, "select workstream")
	}
	w := snap.Workstream
	return ledger.Workstream{ID: w.ID, Name: w.Name, RepoFingerprint: w.RepoFingerprint, WorktreeFingerprint: w.WorktreeFingerprint,
		Cwd: w.Cwd, CreatedAt: fromMicro(w.CreatedAt), SelectedAt: fromMicro(w.SelectedAt), UpdatedAt: fromMicro(w.UpdatedAt)}, nil
}

// resolveSelector takes the scope's advisory lock and finds the selected
// workstream in one round trip, creating it when the selector asks for it
// or when the scope has none yet.
func resolveSelector(ctx context.Context, t *tx, s ledger.Scope, name string, create bool) (string, error) {
	current := name == "" && !create
	q, args := sqlWorkstreamIDByName, []any{s.RepoFingerprint, s.WorktreeFingerprint, name}
	if current {
		q, args = sqlCurrentWorkstreamID, args[:2]
	}
	b := &pgx.Batch{}
	b.Queue(sqlLockScope, s.RepoFingerprint, s.WorktreeFingerprint)
	id, found, err := lookupID(ctx, t, b, q, args...)
	switch {
	case err != nil:
		return "", err
	case current && found:
		return id, nil
	case current: // the scope's first workstream
		name, create = ledger.DefaultWorkstreamName, true
		if id, found, err = lookupID(ctx, t, &pgx.Batch{}, sqlWorkstreamIDByName, s.RepoFingerprint, s.WorktreeFingerprint, name); err != nil {
			return "", err
		}
	}
	switch {
	case found && create:
		return "", ledger.Errorf(ledger.ErrExists, "workstream '%s' already exists; select it with --workstream %s", name, name)
	case found:
		return id, nil
	case !create:
		return "", ledger.Errorf(ledger.ErrNotFound, "workstream '%s' does not exist; create it with --new %s or list them with `ai-memory workstreams`", name, name)
	}
	u, err := uuid.NewV7()
	if err != nil {
		return "", fmt.Errorf("new workstream id: %w", err)
	}
	_, err = t.Exec(ctx, sqlInsertWorkstream, u.String(), s.RepoFingerprint, s.WorktreeFingerprint, name, s.Cwd, t.now)
	return u.String(), err
}

// lookupID sends b with the id query q last and returns the id it found.
func lookupID(ctx context.Context, t *tx, b *pgx.Batch, q string, args ...any) (id string, found bool, err error) {
	b.Queue(q, args...).QueryRow(func(r pgx.Row) error {
		err := r.Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		found = err == nil
		return err
	})
	err = t.SendBatch(ctx, b).Close()
	return id, found, err
}

// CurrentWorkstream returns the most recently selected workstream of the
// scope without changing anything; false when the scope has none.
func (db *DB) CurrentWorkstream(ctx context.Context, s ledger.Scope) (ledger.Workstream, bool, error) {
	ws, err := scanWorkstream(db.pool.QueryRow(ctx, sqlCurrentWorkstream, s.RepoFingerprint, s.WorktreeFingerprint))
	if errors.Is(err, pgx.ErrNoRows) {
		return ledger.Workstream{}, false, nil
	}
	if err != nil {
		return ledger.Workstream{}, false, db.wrap(err, "current workstream")
	}
	return ws, true, nil
}

// WorkstreamByID returns the workstream with that id, or ErrNotFound.
func (db *DB) WorkstreamByID(ctx context.Context, id string) (ledger.Workstream, error) {
	ws, err := scanWorkstream(db.pool.QueryRow(ctx, sqlWorkstreamByID, id))
	return ws, db.notFound(err, id, "read workstream")
}

// Workstream returns one workstream by id.
func (db *DB) Workstream(ctx context.Context, wsID string) (ledger.Workstream, error) {
	return db.WorkstreamByID(ctx, wsID)
}

func scanWorkstream(r rowScanner) (ledger.Workstream, error) {
	var ws ledger.Workstream
	var c, s, u int64
	err := r.Scan(&ws.ID, &ws.Name, &ws.RepoFingerprint, &ws.WorktreeFingerprint, &ws.Cwd, &c, &s, &u)
	ws.CreatedAt, ws.SelectedAt, ws.UpdatedAt = fromMicro(c), fromMicro(s), fromMicro(u)
	return ws, err
}

// ListWorkstreams lists the scope's workstreams, most recently selected first.
func (db *DB) ListWorkstreams(ctx context.Context, s ledger.Scope) ([]ledger.WorkstreamSummary, error) {
	out, err := db.summaries(ctx, "list workstreams", sqlListWorkstreams, s.RepoFingerprint, s.WorktreeFingerprint)
	if len(out) > 0 {
		out[0].Selected = true
	}
	return out, err
}

// AllWorkstreams lists the workstreams of every checkout, most recently
// updated first. Selected marks each checkout's selected one.
func (db *DB) AllWorkstreams(ctx context.Context) ([]ledger.WorkstreamSummary, error) {
	out, err := db.summaries(ctx, "list all workstreams", sqlAllWorkstreams)
	markSelected(out)
	return out, err
}

func (db *DB) summaries(ctx context.Context, op, query string, args ...any) ([]ledger.WorkstreamSummary, error) {
	rows, err := db.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, db.wrap(err, op)
	}
	var out []ledger.WorkstreamSummary
	for rows.Next() {
		var s ledger.WorkstreamSummary
		var c, sel, u int64
		if err := rows.Scan(&s.ID, &s.Name, &s.RepoFingerprint, &s.WorktreeFingerprint, &s.Cwd,
			&c, &sel, &u, &s.Events, &s.LastHarness); err != nil {
			rows.Close()
			return nil, db.wrap(err, op)
		}
		s.CreatedAt, s.SelectedAt, s.UpdatedAt = fromMicro(c), fromMicro(sel), fromMicro(u)
		out = append(out, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, db.wrap(err, op)
	}
	for i := range out {
		if out[i].Harnesses, err = db.harnesses(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// markSelected sets Selected on the newest-selected workstream of each checkout.
func markSelected(list []ledger.WorkstreamSummary) {
	type scope struct{ repo, wt string }
	best := map[scope]int{}
	for i, s := range list {
		k := scope{s.RepoFingerprint, s.WorktreeFingerprint}
		if j, ok := best[k]; !ok || s.SelectedAt.After(list[j].SelectedAt) {
			best[k] = i
		}
	}
	for _, i := range best {
		list[i].Selected = true
	}
}

func (db *DB) harnesses(ctx context.Context, wsID string) ([]string, error) {
	rows, err := db.pool.Query(ctx, sqlWorkstreamHarnesses, wsID)
	if err != nil {
		return nil, db.wrap(err, "list harnesses")
	}
	hs, err := pgx.CollectRows(rows, pgx.RowTo[string])
	sort.Strings(hs)
	return hs, db.wrap(err, "list harnesses")
}

// Established reports whether the workstream has history worth continuing
// (see the SQLite backend: a link, or an event that is not a checkpoint or
// an annotation).
func (db *DB) Established(ctx context.Context, wsID string) (bool, error) {
	var ok bool
	err := db.pool.QueryRow(ctx, sqlEstablished, wsID).Scan(&ok)
	return ok, db.wrap(err, "check workstream history")
}

// lockWorkstream takes the workstream's row lock for the transaction and
// returns its key and last sequence, or ErrNotFound.
func lockWorkstream(ctx context.Context, t *tx, wsID string) (wsk, last int64, err error) {
	err = t.QueryRow(ctx, sqlLockWorkstream, wsID).Scan(&wsk, &last)
	return wsk, last, missingWorkstream(err, wsID)
}

// missingWorkstream turns "no rows" from reading workstream wsID into
// ErrNotFound; other errors pass through.
func missingWorkstream(err error, wsID string) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return ledger.Errorf(ledger.ErrNotFound, "workstream %s does not exist; list them with `ai-memory workstreams`", wsID)
	}
	return err
}

func (db *DB) notFound(err error, wsID, op string) error {
	return db.wrap(missingWorkstream(err, wsID), op)
}

// MoveScope moves the workstreams of from into to, each in its own state
// transaction holding the destination scope's advisory lock (so a name
// check and a concurrent SelectWorkstream creating that name do not race);
// a move cut short resumes on the next call.
func (db *DB) MoveScope(ctx context.Context, from, to ledger.Scope) (int, error) {
	if err := ledger.ValidateScope(from); err != nil {
		return 0, err
	}
	if err := ledger.ValidateScope(to); err != nil {
		return 0, err
	}
	if from.RepoFingerprint == to.RepoFingerprint && from.WorktreeFingerprint == to.WorktreeFingerprint {
		return 0, nil
	}
	ids, err := db.scopeWorkstreamIDs(ctx, from)
	if err != nil {
		return 0, db.wrap(err, "move workstreams")
	}
	moved := 0
	for _, id := range ids {
		_, err := db.withStateTx(ctx, func(t *tx) (string, error) {
			ok, err := moveWorkstream(ctx, t, id, from, to)
			if err != nil || !ok {
				return "", err
			}
			moved++
			return id, nil
		})
		if err != nil {
			return moved, db.wrap(err, "move workstream "+id)
		}
	}
	return moved, nil
}

func (db *DB) scopeWorkstreamIDs(ctx context.Context, s ledger.Scope) ([]string, error) {
	rows, err := db.pool.Query(ctx, sqlScopeWorkstreamIDs, s.RepoFingerprint, s.WorktreeFingerprint)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// moveWorkstream moves one workstream if it still is in from; ok reports
// whether it did.
func moveWorkstream(ctx context.Context, t *tx, id string, from, to ledger.Scope) (ok bool, err error) {
	if _, err := t.Exec(ctx, sqlLockScope, to.RepoFingerprint, to.WorktreeFingerprint); err != nil {
		return false, err
	}
	var name string
	err = t.QueryRow(ctx, sqlWorkstreamNameIn, id, from.RepoFingerprint, from.WorktreeFingerprint).Scan(&name)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil // moved meanwhile
	}
	if err != nil {
		return false, err
	}
	var taken bool
	if err := t.QueryRow(ctx, sqlNameTaken, to.RepoFingerprint, to.WorktreeFingerprint, name).Scan(&taken); err != nil {
		return false, err
	}
	if taken {
		name = ledger.MovedName(name, id)
	}
	_, err = t.Exec(ctx, sqlMoveWorkstream, to.RepoFingerprint, to.WorktreeFingerprint, name, to.Cwd, id,
		from.RepoFingerprint, from.WorktreeFingerprint)
	return err == nil, err
}
