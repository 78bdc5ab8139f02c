package harness

import (
	"fmt"
	"os"
)

// claude plans launches of Claude Code. readFile reads a settings file the
// user passed with --settings (nil means os.ReadFile); tests replace it.
type claude struct {
	readFile func(string) ([]byte, error)
}

var _ Harness = claude{}

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

func (claude) Name() string       { return "claude" }
func (claude) Aliases() []string  { return []string{"claude-code"} }
func (claude) Executable() string { return "claude" }

// Plan applies the Claude rules: --session-id for a fresh session, --resume
// for the linked one, nothing when the user chose natively; yolo maps to
// --dangerously-skip-permissions; the packet goes through a SessionStart
// hook passed with --settings, because --append-system-prompt is ignored on
// --resume.
func (c claude) Plan(r Request) (Plan, error) {
	args, yolo := stripYolo(r.Args)
	p := Plan{Interactive: r.StdinTTY && !hasFlag(args, "-p", "--print")}
	if claudePassthrough(args) {
		p.Args, p.Mode = args, ModePassthrough
		return p, nil
	}
	sel := claudeSelector(args)
	if sel.explicit && r.Fresh {
		return Plan{}, ErrFreshWithSelector
	}
	args, err := c.selectSession(&p, args, sel, r)
	if err != nil {
		return Plan{}, err
	}
	if (yolo || r.Yolo) && !hasFlag(args, claudeYolo) {
		args = appendOptions(args, claudeYolo)
	}
	if r.Packet != "" {
		if args, err = c.deliver(&p, args, r); err != nil {
			return Plan{}, err
		}
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
// --session-id <new> (nothing without a new id, so a probe plan works).
func (claude) selectSession(p *Plan, args []string, sel claudeSelection, r Request) ([]string, error) {
	switch {
	case sel.explicit:
		p.ExplicitSelector, p.ExplicitSessionID = true, sel.named
		p.SessionID, p.Resume = sel.sessionID, sel.resume
		return args, nil
	case !r.Fresh && r.LinkedSessionID != "":
		p.SessionID, p.Resume = r.LinkedSessionID, true
		return appendOptions(args, claudeResumeOpt, r.LinkedSessionID), nil
	case r.NewSessionID == "":
		// A probe plan (or a caller without an id): Claude makes the id.
		return args, nil
	default:
		p.SessionID = r.NewSessionID
		return appendOptions(args, claudeSessionIDOpt, r.NewSessionID), nil
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
