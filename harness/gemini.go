package harness

import (
	"path/filepath"
	"strings"
)

// gemini plans launches of Gemini CLI (@google/gemini-cli 0.61). It is not
// in the registry yet: the launcher and the transcript registry are being
// reworked into one descriptor per harness (issue 11), and Gemini is wired
// in after that. Flags are those of `gemini --help` 0.61.0.
type gemini struct{}

var _ Harness = gemini{}

// Gemini returns the Gemini CLI planner (unregistered, see [gemini]).
func Gemini() Harness { return gemini{} }

// geminiUtilities are first arguments that run a utility subcommand (yargs
// commands and their aliases), not a session.
var geminiUtilities = map[string]bool{
	"mcp": true, "extensions": true, "extension": true, "skills": true, "skill": true,
	"hooks": true, "hook": true, "gemma": true,
}

// geminiPassthroughFlags print something and exit, or hand the terminal to
// another protocol (ACP is driven by an editor, not a person).
var geminiPassthroughFlags = []string{
	"--help", "-h", "--version", "-v", "--list-extensions", "-l",
	"--list-sessions", "--delete-session", "--acp", "--experimental-acp",
}

const (
	geminiYolo         = "--yolo"
	geminiYoloShort    = "-y"
	geminiApprovalOpt  = "--approval-mode"
	geminiSessionIDOpt = "--session-id"
	geminiResumeOpt    = "--resume"
)

func (gemini) Name() string       { return "gemini" }
func (gemini) Aliases() []string  { return []string{"gemini-cli"} }
func (gemini) Executable() string { return "gemini" }

// Plan applies the Gemini rules: --session-id <new> for a fresh session,
// --resume <linked> to continue one, nothing when the user chose natively;
// yolo is --yolo unless the user already set -y/--yolo or --approval-mode
// (the CLI rejects both together); the packet goes into the system prompt
// through GEMINI_SYSTEM_MD (see [GeminiDelivery]).
func (g gemini) Plan(r Request) (Plan, error) {
	args, yolo := stripYolo(r.Args)
	// The wrapper token is also Gemini's own flag: a typed --yolo asks for
	// yolo either way, and is put back exactly once below.
	p := Plan{Interactive: r.StdinTTY && !hasFlag(args, "-p", "--prompt")}
	if geminiPassthrough(args) {
		if yolo {
			args = appendOptions(args, geminiYolo)
		}
		p.Args, p.Mode = args, ModePassthrough
		return p, nil
	}
	sel := geminiSelector(args)
	if sel.explicit && r.Fresh {
		return Plan{}, ErrFreshWithSelector
	}
	args = g.selectSession(&p, args, sel, r)
	args, notice := geminiYoloArgs(args, yolo || r.Yolo)
	if notice != "" {
		p.Notices = append(p.Notices, notice)
	}
	if r.Packet != "" {
		g.deliver(&p, r)
	}
	p.Args = args
	return p, nil
}

func geminiPassthrough(args []string) bool {
	if len(args) > 0 && geminiUtilities[args[0]] {
		return true
	}
	return hasFlag(args, geminiPassthroughFlags...)
}

// geminiSelection is what the user's own session flags ask for.
type geminiSelection struct {
	explicit  bool   // any of --resume/-r, --session-id, --session-file
	named     string // id named by --resume <uuid> or --session-id
	sessionID string // id of the session that will run, if known
	resume    bool
}

// geminiSelector reads the user's selectors. --resume takes "latest", an
// index (both pick a session only the CLI can resolve) or a session id;
// bare --resume means latest. --session-id names a new session.
// --session-file loads a session from a file: its id is not known here.
func geminiSelector(args []string) geminiSelection {
	var s geminiSelection
	s.explicit = hasFlag(args, geminiResumeOpt, "-r", geminiSessionIDOpt, "--session-file")
	if i := lastFlagIndex(args, geminiResumeOpt, "-r"); i >= 0 {
		if v, _ := flagValueAt(args, i); v != "" && v != "latest" && !allDigits(v) {
			s.named, s.sessionID, s.resume = v, v, true
		}
		return s
	}
	if i := lastFlagIndex(args, geminiSessionIDOpt); i >= 0 {
		v, _ := flagValueAt(args, i)
		s.named, s.sessionID = v, v
	}
	return s
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// selectSession records the user's choice, or injects --resume <linked> or
// --session-id <new> (nothing without a new id, so a probe plan works).
func (gemini) selectSession(p *Plan, args []string, sel geminiSelection, r Request) []string {
	switch {
	case sel.explicit:
		p.ExplicitSelector, p.ExplicitSessionID = true, sel.named
		p.SessionID, p.Resume = sel.sessionID, sel.resume
		return args
	case !r.Fresh && r.LinkedSessionID != "":
		p.SessionID, p.Resume = r.LinkedSessionID, true
		return appendOptions(args, geminiResumeOpt, r.LinkedSessionID)
	case r.NewSessionID == "":
		return args
	default:
		p.SessionID = r.NewSessionID
		return appendOptions(args, geminiSessionIDOpt, r.NewSessionID)
	}
}

// geminiYoloArgs adds --yolo when yolo is asked for and the user gave no
// approval setting of their own; an explicit --approval-mode other than
// yolo wins, with a notice (Gemini refuses --yolo beside --approval-mode).
func geminiYoloArgs(args []string, yolo bool) ([]string, string) {
	if !yolo || hasFlag(args, geminiYolo, geminiYoloShort) {
		return args, ""
	}
	if i := lastFlagIndex(args, geminiApprovalOpt); i >= 0 {
		if v, _ := flagValueAt(args, i); v != "yolo" {
			return args, "ai-memory: --yolo not applied: you chose --approval-mode " + v
		}
		return args, ""
	}
	return appendOptions(args, geminiYolo), ""
}

// Environment variables of the Gemini delivery.
const (
	// GeminiSystemMDEnv makes Gemini read its system prompt from a file.
	GeminiSystemMDEnv = "GEMINI_SYSTEM_MD"
	// GeminiWriteSystemMDEnv makes Gemini write the system prompt it built
	// to a file (at chat start, before the first model request).
	GeminiWriteSystemMDEnv = "GEMINI_WRITE_SYSTEM_MD"
)

// GeminiSystemFile is the per-run system prompt file, under the run dir.
const GeminiSystemFile = "gemini-system.md"

// GeminiDelivery is the per-run plan that puts packet in front of the model
// without touching a user file: a file under runDir holding Gemini's own
// base prompt followed by the packet, named by GEMINI_SYSTEM_MD in the
// child's environment. Gemini reads that file in place of its built-in
// prompt on fresh and resumed sessions alike, then still substitutes its
// ${AvailableTools}/${AgentSkills}/${SubAgents} placeholders and appends the
// user's GEMINI.md memory, so basePrompt must be the prompt without memory.
// ok is false (nothing to deliver this way) when basePrompt is blank: a file
// holding only the packet would drop Gemini's whole system prompt.
func GeminiDelivery(basePrompt, packet, runDir string) (f File, env map[string]string, ok bool) {
	if strings.TrimSpace(basePrompt) == "" || strings.TrimSpace(packet) == "" {
		return File{}, nil, false
	}
	content := strings.TrimRight(basePrompt, "\n") + "\n\n" + strings.TrimRight(packet, "\n") + "\n"
	f = File{Path: filepath.Join(runDir, GeminiSystemFile), Content: content}
	return f, map[string]string{GeminiSystemMDEnv: f.Path}, true
}

// deliver plans the GEMINI_SYSTEM_MD delivery with the base prompt the
// launcher supplies in Request.BaseInstructions, or skips it with a notice.
// A GEMINI_SYSTEM_MD the user set themselves is theirs: the launcher passes
// its content as the base prompt, so it is kept and extended.
func (gemini) deliver(p *Plan, r Request) {
	f, env, ok := GeminiDelivery(r.BaseInstructions, r.Packet, r.RunDir)
	if !ok {
		p.Notices = append(p.Notices, skipNotice("Gemini's base system prompt is not known for this launch"))
		return
	}
	p.Delivery, p.Files = DeliveryOnStart, append(p.Files, f)
	if p.Env == nil {
		p.Env = map[string]string{}
	}
	for k, v := range env {
		p.Env[k] = v
	}
}
