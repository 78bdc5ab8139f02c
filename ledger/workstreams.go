package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
)

// Scope is the checkout a workstream belongs to. Names are unique within
// (RepoFingerprint, WorktreeFingerprint); Cwd is stored for diagnostics only.
type Scope struct {
	RepoFingerprint, WorktreeFingerprint, Cwd string
}

// Workstream is one named line of work in a checkout.
type Workstream struct {
	ID, Name, RepoFingerprint, WorktreeFingerprint, Cwd string
	CreatedAt, SelectedAt, UpdatedAt                    time.Time
}

// Selector says which workstream a launch wants. {"", false}: the most
// recently selected one of the scope, else a new "default"; {N, false}: N
// must exist; {N, true}: N must not exist and is created.
type Selector struct {
	Name   string
	Create bool
}

// DefaultWorkstreamName is the name created when a scope has none.
const DefaultWorkstreamName = "default"

// MaxNameRunes bounds a workstream name.
const MaxNameRunes = 128

// ValidateName checks a workstream name: non-empty after trimming, at most
// 128 characters, no control characters and no path separators (names show
// up in messages and may become file names in tools around us).
func ValidateName(name string) error {
	n := strings.TrimSpace(name)
	switch {
	case n == "":
		return errors.New("workstream name is empty; pass a name such as --workstream feature-x")
	case !utf8.ValidString(n):
		return fmt.Errorf("workstream name %q is not valid UTF-8; choose another name", name)
	case utf8.RuneCountInString(n) > MaxNameRunes:
		return fmt.Errorf("workstream name is longer than %d characters; choose a shorter name", MaxNameRunes)
	case strings.ContainsAny(n, `/\`):
		return fmt.Errorf("workstream name %q contains '/' or '\\'; choose a name without path separators", n)
	}
	if i := strings.IndexFunc(n, invisible); i >= 0 {
		r, _ := utf8.DecodeRuneInString(n[i:])
		return fmt.Errorf("workstream name %q contains U+%04X, an invisible control or format character; choose a name of visible characters", n, r)
	}
	return nil
}

// invisible reports control (Cc) and format (Cf) characters: zero-width
// spaces, bidi overrides and the like would make two names look the same
// ("default" and "default\u200b") or reorder what a terminal shows.
func invisible(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

func validateScope(s Scope) error {
	if strings.TrimSpace(s.RepoFingerprint) == "" || strings.TrimSpace(s.WorktreeFingerprint) == "" {
		return errors.New("workstream scope has an empty repository or worktree fingerprint")
	}
	return nil
}

// SelectWorkstream resolves sel in scope s (creating when the selector says
// so) and marks it selected: selected_at = updated_at = now, cwd stored.
func (db *DB) SelectWorkstream(ctx context.Context, s Scope, sel Selector) (Workstream, error) {
	if err := validateScope(s); err != nil {
		return Workstream{}, err
	}
	name := strings.TrimSpace(sel.Name)
	if name != "" || sel.Create {
		if err := ValidateName(name); err != nil {
			return Workstream{}, err
		}
	}
	var ws Workstream
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
func (db *DB) resolveSelector(ctx context.Context, tx *sql.Tx, s Scope, name string, create bool) (string, error) {
	if name == "" && !create {
		var id string
		err := tx.QueryRowContext(ctx, sqlCurrentWorkstreamID, s.RepoFingerprint, s.WorktreeFingerprint).Scan(&id)
		if err == nil {
			return id, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return "", err
		}
		name = DefaultWorkstreamName
		create = true
	}
	var id string
	err := tx.QueryRowContext(ctx, sqlWorkstreamIDByName, s.RepoFingerprint, s.WorktreeFingerprint, name).Scan(&id)
	switch {
	case err == nil && create:
		return "", errorf(ErrExists, "workstream '%s' already exists; select it with --workstream %s", name, name)
	case err == nil:
		return id, nil
	case !errors.Is(err, sql.ErrNoRows):
		return "", err
	case !create:
		return "", errorf(ErrNotFound, "workstream '%s' does not exist; create it with --new %s or list them with `ai-memory workstreams`", name, name)
	}
	return db.createWorkstream(ctx, tx, s, name)
}

func (db *DB) createWorkstream(ctx context.Context, tx *sql.Tx, s Scope, name string) (string, error) {
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
func (db *DB) markSelected(ctx context.Context, tx *sql.Tx, s Scope, id string) error {
	now := db.nowMicro()
	_, err := tx.ExecContext(ctx, sqlMarkSelected, now, s.Cwd, id, s.RepoFingerprint, s.WorktreeFingerprint)
	return err
}

// CurrentWorkstream returns the most recently selected workstream of the
// scope without changing anything; false when the scope has none.
func (db *DB) CurrentWorkstream(ctx context.Context, s Scope) (Workstream, bool, error) {
	ws, err := scanWorkstream(db.sql.QueryRowContext(ctx, sqlCurrentWorkstream, s.RepoFingerprint, s.WorktreeFingerprint))
	if errors.Is(err, sql.ErrNoRows) {
		return Workstream{}, false, nil
	}
	if err != nil {
		return Workstream{}, false, db.wrap(err, "current workstream")
	}
	return ws, true, nil
}

// WorkstreamByID returns the workstream with that id, or ErrNotFound.
func (db *DB) WorkstreamByID(ctx context.Context, id string) (Workstream, error) {
	ws, err := scanWorkstream(db.sql.QueryRowContext(ctx, sqlWorkstreamByID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Workstream{}, errorf(ErrNotFound, "workstream %s does not exist; list them with `ai-memory workstreams`", id)
	}
	return ws, db.wrap(err, "read workstream")
}

type rowScanner interface{ Scan(...any) error }

func scanWorkstream(r rowScanner) (Workstream, error) {
	var ws Workstream
	var c, s, u int64
	err := r.Scan(&ws.ID, &ws.Name, &ws.RepoFingerprint, &ws.WorktreeFingerprint, &ws.Cwd, &c, &s, &u)
	ws.CreatedAt, ws.SelectedAt, ws.UpdatedAt = fromMicro(c), fromMicro(s), fromMicro(u)
	return ws, err
}

func fromMicro(us int64) time.Time { return time.UnixMicro(us).UTC() }
