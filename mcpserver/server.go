package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool names, as the server lists them. A harness shows them with its own
// prefix (Claude: mcp__ai-memory__search; Codex: ai-memory.search).
const (
	ToolSearch   = "search"
	ToolSessions = "list_sessions"
	ToolRead     = "read_events"
	ToolHandoff  = "handoff"
)

// ServerName is the name the server registers under in an agent.
const ServerName = "ai-memory"

// Bounds of every answer, so one call never floods the model's context.
const (
	excerptChars    = 400  // per search hit
	defaultChars    = 2000 // per event in read_events, unless asked
	maxChars        = 8000 // per event, however asked
	defaultEvents   = 20
	maxEvents       = 50
	defaultSessions = 20
	maxSessions     = 100
)

// Config fixes what the server may read.
type Config struct {
	// Open opens the ledger; nil DB and nil error mean there is none yet
	// (every tool then answers empty).
	Open func() (ledger.Ledger, error)
	// WorkstreamID is the one workstream served; "" answers empty.
	WorkstreamID string
	// RepoFingerprint, when set, must match the workstream's repository:
	// a stray AI_MEMORY_WORKSTREAM_ID never exposes another repository.
	RepoFingerprint string
	// RunID is the current launch (AI_MEMORY_RUN_ID), for the handoff tool.
	RunID string
	// Version is the binary's version, reported at initialize.
	Version string
	Now     func() time.Time
}

// New returns the server with its tools registered.
func New(c Config) *mcp.Server {
	if c.Now == nil {
		c.Now = time.Now
	}
	s := mcp.NewServer(&mcp.Implementation{Name: ServerName, Version: c.Version}, &mcp.ServerOptions{
		Instructions: "The memory of this workstream: what earlier coding-agent sessions (of every harness) in this repository said and did. " +
			"Use search before redoing work or asking the user something an earlier session may have settled.",
	})
	t := &tools{c: c}
	mcp.AddTool(s, &mcp.Tool{Name: ToolSearch, Description: searchDoc, Annotations: readOnly()}, t.search)
	mcp.AddTool(s, &mcp.Tool{Name: ToolSessions, Description: sessionsDoc, Annotations: readOnly()}, t.sessions)
	mcp.AddTool(s, &mcp.Tool{Name: ToolRead, Description: readDoc, Annotations: readOnly()}, t.read)
	mcp.AddTool(s, &mcp.Tool{Name: ToolHandoff, Description: handoffDoc, Annotations: readOnly()}, t.handoff)
	return s
}

// readOnly annotates every tool: it reads the ledger only, repeats
// without effect and touches nothing outside this workstream, which
// clients may use to skip their approval prompt.
func readOnly() *mcp.ToolAnnotations {
	closed := false
	return &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &closed}
}

// Serve runs the server on stdin/stdout until the client disconnects.
func Serve(ctx context.Context, c Config) error {
	err := New(c).Run(ctx, &mcp.StdioTransport{})
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("mcp server: %w", err)
	}
	return nil
}

type tools struct{ c Config }

// scope opens the ledger and checks the workstream; ok=false means there
// is nothing to read yet (the caller answers empty, not an error).
func (t *tools) scope(ctx context.Context) (db ledger.Ledger, ws ledger.Workstream, ok bool, err error) {
	if t.c.WorkstreamID == "" || t.c.Open == nil {
		return nil, ws, false, nil
	}
	db, err = t.c.Open()
	if err != nil || db == nil {
		return nil, ws, false, err
	}
	ws, err = db.WorkstreamByID(ctx, t.c.WorkstreamID)
	if err != nil {
		db.Close()
		return nil, ws, false, err
	}
	if t.c.RepoFingerprint != "" && ws.RepoFingerprint != t.c.RepoFingerprint {
		db.Close()
		return nil, ws, false, fmt.Errorf("workstream %s belongs to another repository; this server only reads this checkout's history", ws.ID)
	}
	return db, ws, true, nil
}
