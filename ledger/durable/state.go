package durable

import (
	"crypto/sha256"
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

// State is everything about a workstream besides its events that the
// segments must carry so the ledger can be rebuilt from them alone: the
// workstream row, every native-session link with its source and delivery
// cursors, and its newest runs. A backend writes one, as an immutable file,
// in every transaction that changes that state; rebuild takes the newest.
// Times are Unix microseconds.
type State struct {
	V          int             `json:"v"`
	Seq        int64           `json:"seq"`
	Workstream StateWorkstream `json:"workstream"`
	Links      []StateLink     `json:"links"`
	Runs       []StateRun      `json:"runs"`
}

// StateWorkstream is the workstream row of a State.
type StateWorkstream struct {
	ID                  string `json:"id"`
	Name                string `json:"name"`
	RepoFingerprint     string `json:"repo_fingerprint"`
	WorktreeFingerprint string `json:"worktree_fingerprint"`
	Cwd                 string `json:"cwd"`
	CreatedAt           int64  `json:"created_at"`
	SelectedAt          int64  `json:"selected_at"`
	UpdatedAt           int64  `json:"updated_at"`
}

// StateLink is one link of a State. Machine fields are absent from
// snapshots written before machines existed; a rebuild gives those the
// rebuilding machine (as the migration to machines does to the rows of a
// ledger it upgrades).
type StateLink struct {
	Harness         string `json:"harness"`
	Machine         string `json:"machine,omitempty"`
	NativeSessionID string `json:"native_session_id"`
	Current         bool   `json:"current"`
	SourceCursor    string `json:"source_cursor"`
	DeliveryCursor  int64  `json:"delivery_cursor"`
	CreatedAt       int64  `json:"created_at"`
	UpdatedAt       int64  `json:"updated_at"`
}

// StateRun is one run of a State.
type StateRun struct {
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

// StateVersion is the version of State written.
const StateVersion = 1

// StateRunsKept bounds the runs a snapshot carries (besides the active one
// and the newest of each harness), so a snapshot stays small however long
// the workstream lives: older runs are history nothing reads.
const StateRunsKept = 20

// NewState is an empty snapshot to fill.
func NewState() State { return State{V: StateVersion, Links: []StateLink{}, Runs: []StateRun{}} }

// StateDir is where a workstream's state snapshots live, apart from its
// event segments so finding the newest one lists only a few files.
func (s *Store) StateDir(wsID string) string {
	return filepath.Join(s.Root(), wsID, "state")
}

// WriteState writes snap as the workstream's next snapshot, numbered one
// above the newest on disk. The caller holds the workstream's write lock
// (its transaction), so numbers only grow; a snapshot left by a crashed
// transaction is simply superseded by the next one. The caller removes path
// if its transaction fails, and calls PruneState after it commits.
func (s *Store) WriteState(snap State) (path string, seq int64, err error) {
	wsID := snap.Workstream.ID
	dir := s.StateDir(wsID)
	files, err := StateFiles(dir)
	if err != nil {
		return "", 0, err
	}
	snap.Seq = 1
	if len(files) > 0 {
		snap.Seq = files[len(files)-1].Seq + 1
	}
	data, err := json.Marshal(snap)
	if err != nil {
		return "", 0, fmt.Errorf("encode workstream state: %w", err)
	}
	sum := sha256.Sum256(data)
	path = filepath.Join(dir, fmt.Sprintf("%012d-%s.json", snap.Seq, hex.EncodeToString(sum[:8])))
	if err := s.FS.MkdirAll(dir, 0o700); err != nil {
		return "", 0, fmt.Errorf("create state directory: %w", err)
	}
	// Only a workstream's first snapshot is fsynced (so a workstream never
	// vanishes); later ones are not, which keeps a state change at a fraction
	// of a millisecond instead of one fsync (~6 ms here) on the launch path.
	// A power loss can leave the newest one empty or torn: rebuild then takes
	// the one before, which pruning keeps, at most one change older (a
	// source cursor behind re-imports nothing new, dedupe holds; a delivery
	// cursor behind resends a packet, never loses one).
	if err := s.WriteFile(dir, path, data, snap.Seq == 1); err != nil {
		return "", 0, fmt.Errorf("write workstream state %s: %w; free disk space and retry", path, err)
	}
	return path, snap.Seq, nil
}

// StateFile is one snapshot file.
type StateFile struct {
	Seq  int64
	Path string
}

// StateFiles lists the snapshots in dir, oldest first.
func StateFiles(dir string) ([]StateFile, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read state directory %s: %w", dir, err)
	}
	var out []StateFile
	for _, e := range ents {
		n := e.Name()
		num, _, ok := strings.Cut(n, "-")
		seq, err := strconv.ParseInt(num, 10, 64)
		if !ok || err != nil || !strings.HasSuffix(n, ".json") || e.IsDir() {
			continue // temp files and anything else
		}
		out = append(out, StateFile{Seq: seq, Path: filepath.Join(dir, n)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Seq != out[j].Seq {
			return out[i].Seq < out[j].Seq
		}
		return out[i].Path < out[j].Path
	})
	return out, nil
}

// PruneState removes the snapshots older than the one before seq (that one
// is kept for the case the newest was torn by a power loss).
func (s *Store) PruneState(wsID string, seq int64) {
	files, _ := StateFiles(s.StateDir(wsID))
	for _, f := range files {
		if f.Seq < seq-1 {
			s.FS.Remove(f.Path)
		}
	}
}

// LatestState returns the newest readable snapshot of a workstream; ok is
// false when it has none.
func (s *Store) LatestState(wsID string) (snap State, ok bool, err error) {
	files, err := StateFiles(s.StateDir(wsID))
	if err != nil {
		return snap, false, err
	}
	for i := len(files) - 1; i >= 0; i-- {
		data, err := ReadSegmentFile(files[i].Path)
		if err != nil {
			return snap, false, fmt.Errorf("rebuild: %w", err)
		}
		var st State
		if json.Unmarshal(data, &st) == nil && st.V == StateVersion && st.Workstream.ID == wsID && st.Workstream.Name != "" {
			return st, true, nil
		}
	}
	return snap, false, nil
}

// StateOfBatch is the workstream an Append must snapshot: only a batch that
// moves a source cursor changes state its segment does not carry (the
// workstream's counters and update time follow from the segments).
func StateOfBatch(b ledger.Batch) string {
	if b.Cursor == nil {
		return ""
	}
	return b.WorkstreamID
}
