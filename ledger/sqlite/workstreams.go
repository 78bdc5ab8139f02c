package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/ai-memory/ai-memory/ledger"
)

// SelectWorkstream resolves sel in scope s (creating when the selector says
// so) and marks it selected: selected_at = updated_at = now, cwd stored.
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
	var ws ledger.Workstream
	err := db.withStateTx(ctx, func(tx *sql.Tx) (string, error) {
		id, err := db.resolveSelector(ctx, tx, s, name, sel.Create)
		if err != nil {
			return "", err
		}
		if err := db.markSelected(ctx, tx, s, id); err != nil {
			return "", err
		}
		ws, err = scanWorkstream(tx.QueryRowContext(ctx, sqlWorkstreamByID, id))
		return id, err
	})
	return ws, db.wrap(err, "select workstream")
}

// resolveSelector returns the id of the workstream sel designates, creating
// it when needed.
func (db *DB) resolveSelector(ctx context.Context, tx *sql.Tx, s ledger.Scope, name string, create bool) (string, error) {
	if name == "" && !create {
		var id string
		err := tx.QueryRowContext(ctx, sqlCurrentWorkstreamID, s.RepoFingerprint, s.WorktreeFingerprint).Scan(&id)
		if err == nil {
			return id, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return "", err
		}
		name = ledger.DefaultWorkstreamName
		create = true
	}
	var id string
	err := tx.QueryRowContext(ctx, sqlWorkstreamIDByName, s.RepoFingerprint, s.WorktreeFingerprint, name).Scan(&id)
	switch {
	case err == nil && create:
		return "", ledger.Errorf(ledger.ErrExists, "workstream '%s' already exists; select it with --workstream %s", name, name)
	case err == nil:
		return id, nil
	case !errors.Is(err, sql.ErrNoRows):
		return "", err
	case !create:
		return "", ledger.Errorf(ledger.ErrNotFound, "workstream '%s' does not exist; create it with --new %s or list them with `ai-memory workstreams`", name, name)
	}
	return db.createWorkstream(ctx, tx, s, name)
}

func (db *DB) createWorkstream(ctx context.Context, tx *sql.Tx, s ledger.Scope, name string) (string, error) {
	u, err := uuid.NewV7()
	if err != nil {
		return "", fmt.Errorf("new workstream id: %w", err)
	}
	now := db.nowMicro()
	_, err = tx.ExecContext(ctx, sqlInsertWorkstream, u.String(), s.RepoFingerprint, s.WorktreeFingerprint, name, s.Cwd, now, now, now)
	return u.String(), err
}

// markSelected stamps the selection. selected_at is forced strictly above
// every other selection of the scope so "most recently selected" is exact
// even when the clock is coarse or injected.
func (db *DB) markSelected(ctx context.Context, tx *sql.Tx, s ledger.Scope, id string) error {
	now := db.nowMicro()
	_, err := tx.ExecContext(ctx, sqlMarkSelected, now, s.Cwd, id, s.RepoFingerprint, s.WorktreeFingerprint)
	return err
}

// CurrentWorkstream returns the most recently selected workstream of the
// scope without changing anything; false when the scope has none.
func (db *DB) CurrentWorkstream(ctx context.Context, s ledger.Scope) (ledger.Workstream, bool, error) {
	ws, err := scanWorkstream(db.sql.QueryRowContext(ctx, sqlCurrentWorkstream, s.RepoFingerprint, s.WorktreeFingerprint))
	if errors.Is(err, sql.ErrNoRows) {
		return ledger.Workstream{}, false, nil
	}
	if err != nil {
		return ledger.Workstream{}, false, db.wrap(err, "current workstream")
	}
	return ws, true, nil
}

// WorkstreamByID returns the workstream with that id, or ErrNotFound.
func (db *DB) WorkstreamByID(ctx context.Context, id string) (ledger.Workstream, error) {
	ws, err := scanWorkstream(db.sql.QueryRowContext(ctx, sqlWorkstreamByID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return ledger.Workstream{}, ledger.Errorf(ledger.ErrNotFound, "workstream %s does not exist; list them with `ai-memory workstreams`", id)
	}
	return ws, db.wrap(err, "read workstream")
}

type rowScanner interface{ Scan(...any) error }

func scanWorkstream(r rowScanner) (ledger.Workstream, error) {
	var ws ledger.Workstream
	var c, s, u int64
	err := r.Scan(&ws.ID, &ws.Name, &ws.RepoFingerprint, &ws.WorktreeFingerprint, &ws.Cwd, &c, &s, &u)
	ws.CreatedAt, ws.SelectedAt, ws.UpdatedAt = fromMicro(c), fromMicro(s), fromMicro(u)
	return ws, err
}

func fromMicro(us int64) time.Time { return time.UnixMicro(us).UTC() }

// MoveScope moves the workstreams of from into to, each in its own state
// transaction (so each move is in its workstream's snapshot, and a move cut
// short by a crash resumes on the next call: a workstream already moved is
// no longer in from).
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
		err := db.withStateTx(ctx, func(tx *sql.Tx) (string, error) {
			ok, err := db.moveWorkstream(ctx, tx, id, from, to)
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
	return queryStrings(ctx, db.sql, sqlScopeWorkstreamIDs, s.RepoFingerprint, s.WorktreeFingerprint)
}

// moveWorkstream moves one workstream if it still is in from; ok reports
// whether it did.
func (db *DB) moveWorkstream(ctx context.Context, tx *sql.Tx, id string, from, to ledger.Scope) (ok bool, err error) {
	var name string
	err = tx.QueryRowContext(ctx, sqlWorkstreamName, id, from.RepoFingerprint, from.WorktreeFingerprint).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil // moved meanwhile
	}
	if err != nil {
		return false, err
	}
	var taken bool
	if err := tx.QueryRowContext(ctx, sqlNameTaken, to.RepoFingerprint, to.WorktreeFingerprint, name).Scan(&taken); err != nil {
		return false, err
	}
	if taken {
		name = ledger.MovedName(name, id)
	}
	_, err = tx.ExecContext(ctx, sqlMoveWorkstream, to.RepoFingerprint, to.WorktreeFingerprint, name, to.Cwd, id,
		from.RepoFingerprint, from.WorktreeFingerprint)
	return err == nil, err
}
