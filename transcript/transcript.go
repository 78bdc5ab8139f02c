package transcript

import (
	"context"
	"os"
	"strings"
	"time"
)

// PacketMarkerPrefix is the first bytes of every handoff packet we deliver.
// Text that starts with it (a packet read back through a tool result or a
// hook context) is never imported, so a packet cannot re-enter the ledger.
const PacketMarkerPrefix = "<!-- ai-memory:packet:"

// PacketMarker is the full first line of a version 1 handoff packet.
const PacketMarker = PacketMarkerPrefix + "v1 -->"

// Event kinds; the same strings are stored by the ledger.
const (
	KindMessage    = "message"
	KindToolCall   = "tool_call"
	KindToolResult = "tool_result"
	KindCompaction = "compaction"
)

// Event roles used by the readers. Tool calls are made by the assistant; tool
// results come from the tool; compaction summaries are written by the harness.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
	RoleSystem    = "system"
)

// Event is one normalised block of one native record.
//
// RecordID and BlockIndex identify the block inside the session and are
// stable across replays of the same file, so the ledger can derive a
// deterministic event id from them.
type Event struct {
	Kind       string
	Role       string
	Content    string
	RecordID   string
	BlockIndex int
	OccurredAt time.Time
	Metadata   map[string]any
	// ByTime says OccurredAt, not arrival, places the event among its
	// session's events: a record the harness wrote to its store after
	// records that it precedes (Claude Code writes a prompt after the tool
	// call it caused) is shown before them. Sources whose store order is the
	// conversation order leave it false. See docs/ledger.md, "Order".
	ByTime bool
}

// Loss notes a record (or block) that was deliberately not imported, with the
// byte offset of its line, so the ledger can annotate what is missing.
type Loss struct {
	Offset int64
	Reason string
}

// Batch is a group of events and losses handed to the caller of
// [Source.Read]. Cursor is the position after every line this batch covers;
// persisting it together with the batch's events is safe.
type Batch struct {
	Events []Event
	Losses []Loss
	Cursor Cursor
}

// Session is one native session found in a store.
type Session struct {
	Harness string
	ID      string
	// Path is where the session's data is: its file for one-file-per-session
	// stores, the database for a shared one. Only its source reads it.
	Path    string
	Cwd     string
	ModTime time.Time
	// Size is the session's size in its source's progress unit (bytes for
	// files); see [Source.Progress].
	Size int64
}

// Existence is the answer of [Source.Find]: the launcher resumes a Present
// session, starts fresh on Absent and must not guess on Unknown.
type Existence int

const (
	// Unknown means the store could not be read (or is malformed), so the
	// session may or may not exist.
	Unknown Existence = iota
	// Present means the session file exists.
	Present
	// Absent means the store was readable and the session is not in it.
	Absent
)

// String returns "unknown", "present" or "absent".
func (e Existence) String() string {
	switch e {
	case Present:
		return "present"
	case Absent:
		return "absent"
	default:
		return "unknown"
	}
}

// Env is the environment used to locate stores. Getenv reads the harness's
// override variables; a blank value counts as unset.
type Env struct {
	Home   string
	Getenv func(string) string
}

// OSEnv returns the process environment.
func OSEnv() Env {
	home, _ := os.UserHomeDir()
	return Env{Home: home, Getenv: os.Getenv}
}

// lookup returns the trimmed value of key, "" when unset or blank.
func (e Env) lookup(key string) string {
	if e.Getenv == nil {
		return ""
	}
	return strings.TrimSpace(e.Getenv(key))
}

// ReadOptions bounds the batches handed to the emit callback.
type ReadOptions struct {
	BatchEvents int // events per batch; default 400
	BatchBytes  int // content bytes per batch; default 1 MiB
}

const (
	defaultBatchEvents = 400
	defaultBatchBytes  = 1 << 20
)

func (o ReadOptions) withDefaults() ReadOptions {
	if o.BatchEvents <= 0 {
		o.BatchEvents = defaultBatchEvents
	}
	if o.BatchBytes <= 0 {
		o.BatchBytes = defaultBatchBytes
	}
	return o
}

// Source is the read-only adapter for one harness's native session store.
// Everything about a position in the store belongs to the source: the
// launcher stores its [Cursor] without looking inside, asks it how far an
// import got and whether a session's data is still changing.
type Source interface {
	// Harness returns the canonical harness name.
	Harness() string
	// StoreEnv names the variables that move the store (blank = unset).
	StoreEnv() []string
	// StoreRoot returns the store directory, honouring StoreEnv.
	StoreRoot(env Env) string
	// WatchRoots returns the directories to watch recursively while the agent
	// runs in checkout; they may not exist yet.
	WatchRoots(env Env, checkout string) []string
	// List returns up to limit sessions recorded in checkout, newest first.
	// A session belongs to the checkout when its recorded cwd resolves to the
	// same canonical path; when either side cannot be resolved it does not.
	List(env Env, checkout string, limit int) ([]Session, error)
	// Find looks a session up by its exact id.
	Find(env Env, id string) (Session, Existence, error)
	// CreatedSince returns the sessions of checkout modified since since
	// (minus 2 s of slack), newest first.
	CreatedSince(env Env, checkout string, since time.Time) ([]Session, error)
	// Read imports s from the cursor from, handing batches to emit on the
	// caller's goroutine while the next batch is parsed. A batch belongs to
	// emit: the source never changes it afterwards, so emit may hand it to
	// another goroutine and return. A cursor the source cannot use for s
	// reads from the start.
	Read(ctx context.Context, s Session, from Cursor, opt ReadOptions, emit func(Batch) error) error
	// Progress says how much of s the cursor c covers, in the source's own
	// unit (bytes for JSONL), out of total: for progress bars and for sizing
	// the work left.
	Progress(s Session, c Cursor) (done, total int64)
	// Refresh returns s with its size and time as they are now, without a
	// store scan; false when its data is gone.
	Refresh(s Session) (Session, bool)
	// Settled reports whether s stopped changing between two observations
	// (Refresh results) taken after the agent exited.
	Settled(before, after Session) bool
	// WrittenAfterExit reports whether the store can still gain a session or
	// records after the agent's process exited (a separate writer process).
	// When false, a session absent after exit will never appear, and the
	// launcher does not wait for one.
	WrittenAfterExit() bool
}
