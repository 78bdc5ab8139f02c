package harness

import (
	"fmt"
	"os"

	"github.com/ai-memory/ai-memory/transcript"
)

// claudeDescriptor is Claude Code.
func claudeDescriptor() Descriptor {
	return Descriptor{
		Name:        "claude",
		Aliases:     []string{"claude-code"},
		Product:     "Claude Code",
		Executable:  "claude",
		Install:     "npm install -g @anthropic-ai/claude-code",
		Tested:      []string{"2.1.197", "2.1.332"},
		SessionEnv:  []string{"CLAUDE_CODE_SESSION_ID"},
		Planner:     claude{},
		Source:      transcript.ClaudeSource(),
		Hooks:       map[string]Hook{claudeHookEvent: ClaudeSessionStartHook},
		MCPToolName: claudeMCPToolName,
		Check:       claudeCheck,
	}
}

// claude plans launches of Claude Code. readFile reads a settings file the
// user passed with --settings (nil means os.ReadFile); tests replace it.
type claude struct {
	readFile func(string) ([]byte, error)
}

var _ Planner = claude{}

// claudeUtilities are first arguments that run a utility, not a session.
var claudeUtilities = map[string]bool{
	"agents": true, "auth": true, "auto-mode": true, "doctor": true, "install": true,
	"mcp": true, "plugin": true, "plugins": true, "project": true, "setup-token": true,
	"ultrareview": true, "update": true, "upgrade": true,
}

const (
	claudeYolo         = "--dangerously-skip-permissions"
	claudeSessionIDOpt = "--session-id"
	claudeResumeOpt    = "--resume"
)

// Parse reads the Claude argv: -p/--print is noninteractive; help,
// version, --no-session-persistence and utility subcommands pass through;
// --resume/-r/--continue/-c/--session-id are native selectors.
func (claude) Parse(args []string, stdinTTY bool) (Intent, error) {
	args, yolo := stripYolo(args)
	in := Intent{Args: args, Yolo: yolo, Interactive: stdinTTY && !hasFlag(args, "-p", "--print")}
	if claudePassthrough(args) {
		in.Mode = ModePassthrough
		return in, nil
	}
	sel := claudeSelector(args)
	in.Selector, in.SelectedID = sel.explicit, sel.named
	return in, nil
}

// Build applies the Claude rules: --session-id for a fresh session, --resume
// for the linked one, nothing when the user chose natively; yolo maps to
// --dangerously-skip-permissions; the packet goes through a SessionStart
// hook passed with --settings, because --append-system-prompt is ignored on
// --resume; the MCP server goes in --mcp-config, its tools pre-approved in
// the same --settings (see claude_mcp.go).
func (c claude) Build(in Intent, d Decision) (Plan, error) {
	if in.Mode == ModePassthrough {
		return Plan{Args: in.Args}, nil
	}
	var p Plan
	args := c.selectSession(&p, in.Args, claudeSelector(in.Args), d)
	if d.Yolo && !hasFlag(args, claudeYolo) {
		args = appendOptions(args, claudeYolo)
	}
	var allow []string
	if d.MCP != nil {
		var err error
		if args, err = c.registerMCP(args, *d.MCP); err != nil {
			return Plan{}, err
		}
		allow = []string{claudeMCPAllow(d.MCP.Name)}
	}
	var err error
	if d.Packet != "" {
		args, err = c.deliver(&p, args, d, allow)
	} else {
		args, err = c.addSettings(&p, args, claudeAdditions{allow: allow})
	}
	if err != nil {
		return Plan{}, err
	}
	p.Args = args
	return p, nil
}

// claudePassthrough reports help/version flags, --no-session-persistence, or
// a utility subcommand as the first argument.
func claudePassthrough(args []string) bool {
	if len(args) > 0 && claudeUtilities[args[0]] {
		return true
	}
	for _, a := range args[:optionsEnd(args)] {
		switch a {
		case "--help", "-h", "--version", "-v", "--no-session-persistence":
			return true
		}
	}
	return false
}

// claudeSelection is what the user's own session flags ask for.
type claudeSelection struct {
	explicit  bool   // any of --resume/-r/--continue/-c/--session-id
	named     string // id named by --resume/-r or --session-id
	sessionID string // id of the session that will run, if known before spawn
	resume    bool   // an existing session continues under sessionID
}

// claudeSelector reads the user's selectors. --session-id names a new
// session; --resume names an existing one unless --fork-session copies it
// into a new (unknown, or --session-id) id; --continue picks the newest.
func claudeSelector(args []string) claudeSelection {
	var s claudeSelection
	newID := optValue(args, claudeSessionIDOpt)
	resumeIdx := flagIndex(args, claudeResumeOpt, "-r")
	s.explicit = resumeIdx >= 0 || hasFlag(args, claudeSessionIDOpt, "--continue", "-c")
	var resumed string
	if resumeIdx >= 0 {
		resumed, _ = flagValueAt(args, resumeIdx)
	}
	switch {
	case resumed != "" && !hasFlag(args, "--fork-session"):
		s.named, s.sessionID, s.resume = resumed, resumed, true
	case resumed != "":
		s.named, s.sessionID = resumed, newID
	default:
		s.named, s.sessionID = newID, newID
	}
	return s
}

// optValue returns the value of the first option named name, or "".
func optValue(args []string, names ...string) string {
	i := flagIndex(args, names...)
	if i < 0 {
		return ""
	}
	v, _ := flagValueAt(args, i)
	return v
}

// selectSession records the user's choice, or injects --resume <linked> or
// --session-id <new> (nothing without a new id: Claude then makes one).
func (claude) selectSession(p *Plan, args []string, sel claudeSelection, d Decision) []string {
	switch {
	case sel.explicit:
		p.SessionID, p.Resume = sel.sessionID, sel.resume
		return args
	case d.Resume != "":
		p.SessionID, p.Resume = d.Resume, true
		return appendOptions(args, claudeResumeOpt, d.Resume)
	case d.NewSessionID == "":
		return args
	default:
		p.SessionID = d.NewSessionID
		return appendOptions(args, claudeSessionIDOpt, d.NewSessionID)
	}
}

// readSettings reads a settings file named by the user, read-only.
func (c claude) readSettings(path string) ([]byte, error) {
	if c.readFile != nil {
		return c.readFile(path)
	}
	return os.ReadFile(path)
}

// errNoDelivery marks a reason to skip delivery that is told to the user as
// a notice instead of failing the launch.
type errNoDelivery struct{ reason string }

func (e errNoDelivery) Error() string { return e.reason }

func skipNotice(reason string) string {
	return fmt.Sprintf("ai-memory did not deliver the handoff packet this time: %s", reason)
}
