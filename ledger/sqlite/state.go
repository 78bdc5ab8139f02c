package sqlite

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/ai-memory/ai-memory/ledger"
)

// stateSnapshot is everything about a workstream besides its events that
// the segments must carry so the ledger can be rebuilt from them alone: the
// workstream row, every native-session link with its source and delivery
// cursors, and its newest runs. One is written, as an immutable file, by
// every transaction that changes that state (see withStateTx); rebuild
// takes the newest. Times are Unix microseconds, as in the database.
type stateSnapshot struct {
	V          int             `json:"v"`
	Seq        int64           `json:"seq"`
	Workstream stateWorkstream `json:"workstream"`
	Links      []stateLink     `json:"links"`
	Runs       []stateRun      `json:"runs"`
}

type stateWorkstream struct {
	ID                  string `json:"id"`
	Name                string `json:"name"`
	RepoFingerprint     string `json:"repo_fingerprint"`
	WorktreeFingerprint string `json:"worktree_fingerprint"`
	Cwd                 string `json:"cwd"`
	CreatedAt           int64  `json:"created_at"`
	SelectedAt          int64  `json:"selected_at"`
	UpdatedAt           int64  `json:"updated_at"`
}

// Machine fields are absent from snapshots written before machines
// existed; a rebuild gives those the rebuilding machine (as migration 0005
// does to the rows of a ledger it upgrades).
type stateLink struct {
	Harness         string `json:"harness"`
	Machine         string `json:"machine,omitempty"`
	NativeSessionID string `json:"native_session_id"`
	Current         bool   `json:"current"`
	SourceCursor    string `json:"source_cursor"`
	DeliveryCursor  int64  `json:"delivery_cursor"`
	CreatedAt       int64  `json:"created_at"`
	UpdatedAt       int64  `json:"updated_at"`
}

type stateRun struct {
	ID               string `json:"id"`
	Harness          string `json:"harness"`
	NativeSessionID  string `json:"native_session_id"`
	State            string `json:"state"`
	ExitCode         *int64 `json:"exit_code"`
	StartedAt        int64  `json:"started_at"`
	EndedAt          *int64 `json:"ended_at"`
	LeaseExpiresAt   int64  `json:"lease_expires_at"`
	OwnerHost        string `json:"owner_host"`
	OwnerPID         int64  `json:"owner_pid"`
	OwnerStart       string `json:"owner_start"`
	OwnerMachine     string `json:"owner_machine,omitempty"`
	SyncAfter        int64  `json:"sync_after"`
	SyncThrough      int64  `json:"sync_through"`
	ContextDelivered bool   `json:"context_delivered"`
}

const stateVersion = 1

// stateDir is where a workstream's state snapshots live, apart from its
// event segments so finding the newest one lists only a few files.
func (db *DB) stateDir(wsID string) string {
	return filepath.Join(db.home, "segments", wsID, "state")
}

// withStateTx runs fn in one write transaction and, in the same
// transaction, writes a state snapshot of the workstream fn names (none
// when it returns ""). The snapshot file is in place before the commit; if
// the transaction fails it is removed, and after a commit all but the
// previous one are (best effort: rebuild reads the newest readable one).
func (db *DB) withStateTx(ctx context.Context, fn func(*sql.Tx) (wsID string, err error)) error {
	var created, wsID string
	var seq int64
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		var err error
		if wsID, err = fn(tx); err != nil || wsID == "" {
			return err
		}
		created, seq, err = db.writeState(ctx, tx, wsID)
		return err
	})
	switch {
	case err != nil && created != "":
		os.Remove(created)
	case err == nil && created != "":
		db.pruneState(wsID, seq)
	}
	return err
}

// writeState snapshots wsID as the transaction sees it, numbered one above
// the newest snapshot on disk (transactions are serialised by the write
// lock, so numbers only grow; a snapshot left by a crashed transaction is
// simply superseded by the next one).
func (db *DB) writeState(ctx context.Context, tx *sql.Tx, wsID string) (path string, seq int64, err error) {
	snap, err := readState(ctx, tx, wsID)
	if err != nil {
		return "", 0, fmt.Errorf("snapshot workstream state: %w", err)
	}
	dir := db.stateDir(wsID)
	files, err := stateFiles(dir)
	if err != nil {
		return "", 0, err
	}
	snap.Seq = 1
	if len(files) > 0 {
		snap.Seq = files[len(files)-1].seq + 1
	}
	data, err := json.Marshal(snap)
	if err != nil {
		return "", 0, fmt.Errorf("encode workstream state: %w", err)
	}
	sum := sha256.Sum256(data)
	path = filepath.Join(dir, fmt.Sprintf("%012d-%s.json", snap.Seq, hex.EncodeToString(sum[:8])))
	if err := db.segFS.MkdirAll(dir, 0o700); err != nil {
		return "", 0, fmt.Errorf("create state directory: %w", err)
	}
	// Only a workstream's first snapshot is fsynced (so a workstream never
	// vanishes); later ones are not, which keeps a state change at a fraction
	// of a millisecond instead of one fsync (~6 ms here) on the launch path.
	// A power loss can leave the newest one empty or torn: rebuild then takes
	// the one before, which pruning keeps, at most one change older (a
	// source cursor behind re-imports nothing new, dedupe holds; a delivery
	// cursor behind resends a packet, never loses one).
	if err := db.writeFile(dir, path, data, snap.Seq == 1); err != nil {
		return "", 0, fmt.Errorf("write workstream state %s: %w; free disk space and retry", path, err)
	}
	return path, snap.Seq, nil
}

// readState reads the snapshot content of one workstream.
func readState(ctx context.Context, tx *sql.Tx, wsID string) (stateSnapshot, error) {
	s := stateSnapshot{V: stateVersion, Links: []stateLink{}, Runs: []stateRun{}}
	w := &s.Workstream
	err := tx.QueryRowContext(ctx, sqlWorkstreamByID, wsID).Scan(&w.ID, &w.Name, &w.RepoFingerprint,
		&w.WorktreeFingerprint, &w.Cwd, &w.CreatedAt, &w.SelectedAt, &w.UpdatedAt)
	if err != nil {
		return s, err
	}
	if s.Links, err = stateLinks(ctx, tx, wsID); err != nil {
		return s, err
	}
	s.Runs, err = stateRuns(ctx, tx, wsID)
	return s, err
}

func stateLinks(ctx context.Context, tx *sql.Tx, wsID string) ([]stateLink, error) {
	rows, err := tx.QueryContext(ctx, sqlStateLinks, wsID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []stateLink{}
	for rows.Next() {
		var l stateLink
		if err := rows.Scan(&l.Harness, &l.Machine, &l.NativeSessionID, &l.Current, &l.SourceCursor, &l.DeliveryCursor, &l.CreatedAt, &l.UpdatedAt); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

func stateRuns(ctx context.Context, tx *sql.Tx, wsID string) ([]stateRun, error) {
	rows, err := tx.QueryContext(ctx, sqlStateRuns, wsID, stateRunsKept)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []stateRun{}
	for rows.Next() {
		var r stateRun
		var code, ended sql.NullInt64
		if err := rows.Scan(&r.ID, &r.Harness, &r.NativeSessionID, &r.State, &code, &r.StartedAt, &ended,
			&r.LeaseExpiresAt, &r.OwnerHost, &r.OwnerPID, &r.OwnerStart, &r.OwnerMachine, &r.SyncAfter, &r.SyncThrough, &r.ContextDelivered); err != nil {
			return nil, err
		}
		if code.Valid {
			r.ExitCode = &code.Int64
		}
		if ended.Valid {
			r.EndedAt = &ended.Int64
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// stateRunsKept bounds the runs a snapshot carries (besides the active one
// and the newest of each harness), so a snapshot stays small however long
// the workstream lives: older runs are history nothing reads.
const stateRunsKept = 20

type stateFile struct {
	seq  int64
	path string
}

// stateFiles lists the snapshots in dir, oldest first.
func stateFiles(dir string) ([]stateFile, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read state directory %s: %w", dir, err)
	}
	var out []stateFile
	for _, e := range ents {
		n := e.Name()
		num, _, ok := strings.Cut(n, "-")
		seq, err := strconv.ParseInt(num, 10, 64)
		if !ok || err != nil || !strings.HasSuffix(n, ".json") || e.IsDir() {
			continue // temp files and anything else
		}
		out = append(out, stateFile{seq: seq, path: filepath.Join(dir, n)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].seq != out[j].seq {
			return out[i].seq < out[j].seq
		}
		return out[i].path < out[j].path
	})
	return out, nil
}

// pruneState removes the snapshots older than the one before seq (that one
// is kept for the case the newest was torn by a power loss).
func (db *DB) pruneState(wsID string, seq int64) {
	files, _ := stateFiles(db.stateDir(wsID))
	for _, f := range files {
		if f.seq < seq-1 {
			db.segFS.Remove(f.path)
		}
	}
}

// latestState returns the newest readable snapshot of a workstream; ok is
// false when it has none.
func (db *DB) latestState(wsID string) (snap stateSnapshot, ok bool, err error) {
	files, err := stateFiles(db.stateDir(wsID))
	if err != nil {
		return snap, false, err
	}
	for i := len(files) - 1; i >= 0; i-- {
		data, err := ReadSegmentFile(files[i].path)
		if err != nil {
			return snap, false, fmt.Errorf("rebuild: %w", err)
		}
		var s stateSnapshot
		if json.Unmarshal(data, &s) == nil && s.V == stateVersion && s.Workstream.ID == wsID && s.Workstream.Name != "" {
			return s, true, nil
		}
	}
	return snap, false, nil
}

// stateOfBatch is the workstream an Append must snapshot: only a batch that
// moves a source cursor changes state its segment does not carry (the
// workstream's counters and update time follow from the segments).
func stateOfBatch(b ledger.Batch) string {
	if b.Cursor == nil {
		return ""
	}
	return b.WorkstreamID
}
