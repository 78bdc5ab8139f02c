package ledger

import (
	"context"
	"time"
)

// Ledger is the ledger's Go API: everything the launcher, the commands and
// the readers (history, webui, mcpserver, sessionindex) do with a ledger.
// A backend implements it and registers a [Driver]; callers hold a Ledger
// and never a backend's concrete type, so a backend is one package plus
// one import line. Every implementation must pass the conformance suite in
// ledger/ledgertest. All methods are safe for concurrent use.
type Ledger interface {
	Workstreams
	Runs
	Links
	Events

	// Home is the data home: the directory that keeps run directories,
	// segments and state snapshots, whatever backend holds the ledger.
	Home() string
	// Location names the ledger for messages: a file path, or a server
	// address without credentials. It is not a path to build others from.
	Location() string
	// Machine is the machine id this ledger handle acts as: links,
	// cursors and runs it writes are this machine's, and it probes lease
	// owners' processes only on this machine.
	Machine() string
	// SchemaVersion is the schema version of the open ledger.
	SchemaVersion() int
	// Health is what `ai-memory doctor` reports; it never writes.
	Health(ctx context.Context, opt HealthOptions) (Health, error)
	// Rebuild replays the segments (the durable copy) of the data home into
	// the ledger, restoring workstreams, links, cursors and runs from their
	// state snapshots.
	Rebuild(ctx context.Context) (RebuildResult, error)
	Close() error
}

// Workstreams finds, creates and lists workstreams.
type Workstreams interface {
	SelectWorkstream(ctx context.Context, s Scope, sel Selector) (Workstream, error)
	CurrentWorkstream(ctx context.Context, s Scope) (Workstream, bool, error)
	WorkstreamByID(ctx context.Context, id string) (Workstream, error)
	Workstream(ctx context.Context, wsID string) (Workstream, error)
	ListWorkstreams(ctx context.Context, s Scope) ([]WorkstreamSummary, error)
	AllWorkstreams(ctx context.Context) ([]WorkstreamSummary, error)
	Established(ctx context.Context, wsID string) (bool, error)
	// MoveScope moves every workstream of scope from into scope to, with
	// its id, events, links and runs: a checkout's identity changed (the
	// upgrade to portable identity, a repository's first commit). A name
	// already taken in to gets the suffix "-<first 8 of its id>"; to.Cwd,
	// when set, becomes the moved workstreams' cwd. Moving an empty scope,
	// or a scope onto itself, changes nothing, so callers may call it on
	// every launch; with nothing to move it only reads.
	MoveScope(ctx context.Context, from, to Scope) (moved int, err error)
}

// Runs are launches of an agent; a run's lease makes it the one writer of
// its workstream until it finishes, is cancelled or expires.
type Runs interface {
	AcquireLease(ctx context.Context, wsID, harness string, owner Owner) (Run, []Run, error)
	RenewLease(ctx context.Context, runID string) (time.Time, error)
	FinishRun(ctx context.Context, runID string, exitCode *int) error
	CancelRun(ctx context.Context, runID string) error
	SetRunSession(ctx context.Context, runID, nativeID string) error
	SetRunSync(ctx context.Context, runID string, after, through int64) error
	MarkContextDelivered(ctx context.Context, runID string) error
	Run(ctx context.Context, runID string) (Run, error)
	Runs(ctx context.Context, wsID string, limit int) ([]Run, error)
	RunsOldestFirst(ctx context.Context, wsID string) ([]Run, error)
	SpanOf(ctx context.Context, r Run) (RunSpan, error)
	LiveRunForSession(ctx context.Context, harness, nativeID string) (bool, error)
	// ImportRun stores a run that ended in another ledger as it is (id,
	// times, owner, state, exit code) in r.WorkstreamID, which must exist;
	// a run already stored under its id is left alone. An active run is
	// refused. `ai-memory ledger push` and `ledger sync` copy runs with it.
	ImportRun(ctx context.Context, r Run) error
}

// Links tie native sessions to workstreams and carry their cursors. A
// native session lives in one machine's harness store, so links are per
// (workstream, harness, machine): every method acts on the links of this
// ledger's Machine, except Links, which lists every machine's.
type Links interface {
	LinkSession(ctx context.Context, wsID, harness, nativeID string) (Link, error)
	CurrentLink(ctx context.Context, wsID, harness string) (Link, bool, error)
	SessionLink(ctx context.Context, wsID, harness, nativeID string) (Link, bool, error)
	Links(ctx context.Context, wsID string) ([]Link, error)
	AdvanceDelivery(ctx context.Context, wsID, harness, nativeID string, seq int64) error
}

// Events appends and reads a workstream's history.
type Events interface {
	// Append stores a batch idempotently, with its cursor update in the
	// same transaction.
	Append(ctx context.Context, b Batch) (AppendResult, error)
	LatestSequence(ctx context.Context, wsID string) (int64, error)
	CountEvents(ctx context.Context, wsID string) (int64, error)
	EventsInRange(ctx context.Context, wsID string, after, through int64, limit int) ([]Event, error)
	EventsAfter(ctx context.Context, wsID string, after, through int64, limit int) ([]Event, error)
	LatestEvent(ctx context.Context, wsID string, kind Kind) (Event, bool, error)
	FirstEvent(ctx context.Context, wsID string, from, through int64, kind Kind, role string) (Event, bool, error)
	Search(ctx context.Context, wsID, query string, limit int) ([]Event, error)
}

// FileBacked is implemented by a ledger that is one file on this machine,
// so a reader can notice the file being replaced (webui reopens it after
// `ledger rebuild`). A server ledger has no file and does not implement it.
type FileBacked interface {
	File() string
}
