package harness

import (
	"errors"

	"github.com/ai-memory/ai-memory/transcript"
)

// Mode says whether a launch carries a session (import, lease, handoff) or is
// a utility invocation forwarded as typed.
type Mode int

const (
	// ModeSession is a normal agent session: session flags may be injected and
	// the transcript is imported afterwards.
	ModeSession Mode = iota
	// ModePassthrough is help, version or a utility subcommand: the native
	// args are forwarded untouched, no session flags, no import.
	ModePassthrough
)

// String returns the mode's name for logs and test failures.
func (m Mode) String() string {
	switch m {
	case ModeSession:
		return "session"
	case ModePassthrough:
		return "passthrough"
	}
	return "mode(?)"
}

// Intent is what the user's native argv asks for, read before the launcher
// decides anything: [Planner.Parse] is pure and cheap, so the launcher can
// learn whether this is a session at all, whether the user chose the
// session natively and whether a person is at the terminal, and only then
// take its decision and call [Planner.Build] once.
type Intent struct {
	// Args is the native argv with the wrapper token "--yolo" removed.
	Args []string
	// Yolo is true when the native argv contained the wrapper's "--yolo".
	Yolo bool
	Mode Mode
	// Interactive is false for print/exec modes or redirected stdin.
	Interactive bool
	// Selector is true when the user chose a session natively (resume,
	// continue, fork, a caller-chosen id, ...).
	Selector bool
	// SelectedID is the id named by the user's selector, if any: the session
	// whose delivery cursor bounds the packet.
	SelectedID string
}

// Decision is what the launcher decided for one launch.
type Decision struct {
	// Yolo asks for the harness's dangerous mode (wrapper --yolo anywhere).
	Yolo bool
	// Resume is the linked session to resume ("" starts a fresh one). It is
	// always "" when Intent.Selector is set: the user's choice wins.
	Resume string
	// NewSessionID is a uuid v4 for harnesses that accept caller ids.
	NewSessionID string
	// Packet is the handoff packet to deliver ("" = nothing to deliver).
	Packet string
	// RunDir is the per-run scratch directory that holds Plan.Files.
	RunDir string
	// HookCommand is the absolute argv prefix of our hook entry point for this
	// harness, e.g. ["/abs/ai-memory", "hook", "<harness>"]; the planner
	// appends the event name (see [Descriptor.Hooks]).
	HookCommand []string
	// Executable is the absolute path of the CLI that will be spawned, for
	// planners whose flags depend on its version (they probe it themselves,
	// and only when the flag is needed).
	Executable string
	// Session looks a native session up by id (the launcher reuses what it
	// already found). A planner that needs a session's own data to deliver
	// the packet calls it; nil means nothing can be looked up.
	Session func(id string) (transcript.Session, bool)
	// Getenv reads the environment the agent will be started with, for a
	// delivery that must merge with a value the user already set (nil reads
	// nothing).
	Getenv func(string) string
	// MCP is the stdio MCP server to register for this launch only (argv,
	// environment or a file under RunDir; never the user's config), nil for
	// none. The launcher sets it only for harnesses with
	// [Descriptor.MCPToolName], and not under --no-mcp or AI_MEMORY_MCP=0.
	MCP *MCPServer
}

// MCPServer is a stdio MCP server to start for one launch: the memory's
// own `ai-memory mcp`, by the absolute path of the running binary, so the
// server always reads the ledger's schema.
type MCPServer struct {
	// Name is the key the harness lists the server under ("ai-memory"); the
	// model sees its tools under this name (see Descriptor.MCPToolName).
	Name string
	// Command is the absolute path of the program; Args its arguments.
	Command string
	Args    []string
	// Env are variables the server needs. They are also in the agent's
	// environment, but some harnesses start servers with a fixed set of
	// variables only (Codex), so every planner passes them explicitly.
	Env map[string]string
}

// File is a file the launcher must write (mode 0600) before spawning the
// child. Path is always under Decision.RunDir.
type File struct {
	Path    string
	Content string
}

// Plan is the final argv, files and environment of one launch.
type Plan struct {
	Args []string
	// SessionID is the id known before spawn (generated, linked or
	// explicit), "" if it is only known afterwards.
	SessionID string
	// Resume is true when the plan resumes SessionID (linked or explicit).
	Resume bool
	// Confirm says how the launcher learns that the packet reached the
	// model; nil means nothing is delivered (no packet, or the mechanism had
	// to be skipped: see Notices).
	Confirm Confirmation
	Files   []File
	// Env is added to the agent's environment.
	Env map[string]string
	// Notices are one-line messages for the user.
	Notices []string
}

// Confirmation tells whether the packet planned for a launch reached the
// observed native session. Implementations are comparable values, so plans
// stay comparable in tests.
type Confirmation interface {
	// Confirmed reports whether session sessionID received the packet.
	Confirmed(sessionID string) bool
}

// ObservedWithPacket confirms delivery when the session is observed at all:
// the packet was passed to the child at start (argv, environment or a file
// it reads on start), so a session that exists received it.
type ObservedWithPacket struct{}

// Confirmed is always true: the launcher calls it only for an observed session.
func (ObservedWithPacket) Confirmed(string) bool { return true }

// AckFiles confirms delivery when our hook acknowledged every part of the
// packet for the session in Dir (see [Acknowledged]).
type AckFiles struct{ Dir string }

// Confirmed reports whether the hook acknowledged sessionID.
func (a AckFiles) Confirmed(sessionID string) bool { return Acknowledged(a.Dir, sessionID) }

// Planner builds the launch plans of one coding-agent CLI.
type Planner interface {
	// Parse reads the user's native argv. stdinTTY is true when stdin is a
	// terminal. It never modifies args.
	Parse(args []string, stdinTTY bool) (Intent, error)
	// Build makes the final plan of in for the launcher's decision d.
	Build(in Intent, d Decision) (Plan, error)
}

// ErrFreshWithSelector is returned when --fresh is combined with a native
// selector: the two ask for different sessions.
var ErrFreshWithSelector = errors.New("--fresh cannot be combined with a native session, resume, continue, or fork selector")

// Environment variables our hooks read; set in Plan.Env.
const (
	// EnvPacketFile names the file holding the packet for the hook.
	EnvPacketFile = "AI_MEMORY_PACKET_FILE"
	// EnvPacketAckDir names the directory where the hook acknowledges
	// delivery, one file per session.
	EnvPacketAckDir = "AI_MEMORY_PACKET_ACK_DIR"
	// EnvPacketPart is "i/n" when the packet is split across n hook entries.
	EnvPacketPart = "AI_MEMORY_PACKET_PART"
)
