package harness

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/ai-memory/ai-memory/transcript"
)

// geminiDescriptor is Gemini CLI (npm @google/gemini-cli).
func geminiDescriptor() Descriptor {
	return Descriptor{
		Name:       "gemini",
		Aliases:    []string{"gemini-cli"},
		Product:    "Gemini CLI",
		Executable: "gemini",
		Install:    "npm install -g @google/gemini-cli",
		Tested:     []string{"0.61.0"},
		// No SessionEnv: Gemini sets GEMINI_SESSION_ID for hook commands
		// only, not for the shells its tool runs.
		Planner: gemini{},
		Source:  transcript.GeminiSource(),
	}
}

// gemini plans launches of Gemini CLI, a yargs CLI.
//
// Rules, from `gemini --help` of 0.61.0 and its config.ts:
//   - fresh: `--session-id <uuid>` (a caller-chosen id; Gemini records it in
//     the chat file's header).
//   - resume: `--resume <id>`.
//   - native selectors: -r/--resume with or without a value (an id, "latest"
//     or an index: the CLI picks), --session-id (new session with that id),
//     --session-file.
//   - yolo: `-y` unless -y/--yolo or --approval-mode is already there
//     (Gemini rejects both together).
//   - print mode is -p/--prompt; -i/--prompt-interactive stays interactive.
//   - handoff: GEMINI_SYSTEM_MD names a run file holding Gemini's own
//     system prompt followed by the packet (see gemini_prompt.go), fresh
//     and resumed.
type gemini struct {
	// basePrompt produces Gemini's default system prompt for a launch
	// shape; nil means the dry start of gemini_prompt.go. Tests replace it.
	basePrompt func(s geminiShape) (string, error)
}

var _ Planner = gemini{}

const (
	geminiSessionIDOpt = "--session-id"
	geminiResumeOpt    = "--resume"
	geminiYolo         = "-y"
	// EnvGeminiSystemMD is Gemini's system-prompt override: a file whose
	// text replaces the built-in system prompt.
	EnvGeminiSystemMD = "GEMINI_SYSTEM_MD"
	geminiPacketFile  = "gemini-system.md"
)

// geminiUtilities are the subcommands (and yargs aliases) that manage the
// CLI instead of running a session.
var geminiUtilities = map[string]bool{
	"mcp": true, "extensions": true, "extension": true, "skills": true, "skill": true,
	"hooks": true, "hook": true, "gemma": true,
}

// geminiValueOpts are options that take a separate value, so that a value
// is never taken for a subcommand. The array options (-e, --policy, ...)
// take one value here: what follows is the user's to order.
var geminiValueOpts = map[string]bool{
	"-m": true, "--model": true, "-p": true, "--prompt": true, "-i": true, "--prompt-interactive": true,
	"--approval-mode": true, "--policy": true, "--admin-policy": true, "--allowed-mcp-server-names": true,
	"--allowed-tools": true, "-e": true, "--extensions": true, "--session-file": true,
	geminiSessionIDOpt: true, "--delete-session": true, "--include-directories": true,
	"-o": true, "--output-format": true, "--fake-responses": true, "--fake-responses-non-strict": true,
	"--record-responses": true,
}

// Parse reads the Gemini argv: -p/--prompt (or stdin not a terminal
// without -i) is noninteractive; help, version, listings, ACP, worktrees
// and the utility subcommands pass through; --resume, --session-id and
// --session-file are native selectors.
func (gemini) Parse(args []string, stdinTTY bool) (Intent, error) {
	args, yolo := stripYolo(args)
	interactive := (stdinTTY && !hasFlag(args, "-p", "--prompt")) || hasFlag(args, "-i", "--prompt-interactive")
	in := Intent{Args: args, Yolo: yolo, Interactive: interactive}
	if geminiPassthrough(args) {
		in.Mode = ModePassthrough
		return in, nil
	}
	in.Selector = hasFlag(args, "-r", geminiResumeOpt, geminiSessionIDOpt, "--session-file")
	in.SelectedID = geminiSelectedID(args)
	return in, nil
}

// geminiPassthrough reports help, version, the listing and deleting flags,
// ACP (an editor drives it) and --worktree (the session lives in another
// checkout), or a utility subcommand as the first positional.
func geminiPassthrough(args []string) bool {
	end := optionsEnd(args)
	for i := 0; i < end; i++ {
		a := args[i]
		switch {
		case isFlag(a, "-h", "--help", "-v", "--version", "-l", "--list-extensions", "--list-sessions",
			"--delete-session", "--acp", "--experimental-acp", "-w", "--worktree"):
			return true
		case geminiValueOpts[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return geminiUtilities[a] && !hasFlag(args[:i], "-p", "--prompt", "-i", "--prompt-interactive")
		}
	}
	return false
}

// geminiIDRE is what Gemini accepts as a session id (config.ts).
var geminiIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+$`) })

// geminiSelectedID is the id named by --resume <id> or --session-id <id>;
// "latest", an index and a bare --resume name no id known before spawn.
func geminiSelectedID(args []string) string {
	i := lastFlagIndex(args, "-r", geminiResumeOpt, geminiSessionIDOpt)
	if i < 0 {
		return ""
	}
	v, _ := flagValueAt(args, i)
	if !geminiIDRE().MatchString(v) || v == "latest" || strings.Trim(v, "0123456789") == "" {
		return ""
	}
	return v
}

// Build applies the rules above for the launcher's decision.
func (g gemini) Build(in Intent, d Decision) (Plan, error) {
	if in.Mode == ModePassthrough {
		return Plan{Args: in.Args}, nil
	}
	var p Plan
	args := in.Args
	switch {
	case in.Selector:
		if in.SelectedID != "" {
			p.SessionID = in.SelectedID
			p.Resume = hasFlag(args, "-r", geminiResumeOpt)
		}
	case d.Resume != "":
		p.SessionID, p.Resume = d.Resume, true
		args = appendOptions(args, geminiResumeOpt, d.Resume)
	case d.NewSessionID != "":
		p.SessionID = d.NewSessionID
		args = appendOptions(args, geminiSessionIDOpt, d.NewSessionID)
	}
	args = g.yolo(&p, args, d.Yolo)
	if d.Packet != "" && d.RunDir != "" {
		g.deliver(&p, d, geminiShapeOf(args, in.Interactive, d))
	}
	p.Args = args
	return p, nil
}

// yolo adds -y for the wrapper's --yolo unless the user already chose an
// approval mode (Gemini refuses -y together with --approval-mode).
func (gemini) yolo(p *Plan, args []string, yolo bool) []string {
	if !yolo || hasFlag(args, "-y", "--yolo") {
		return args
	}
	if i := lastFlagIndex(args, "--approval-mode"); i >= 0 {
		if v, _ := flagValueAt(args, i); v != "yolo" {
			p.Notices = append(p.Notices, "your --approval-mode "+v+" wins over --yolo for Gemini CLI")
		}
		return args
	}
	return appendOptions(args, geminiYolo)
}

// deliver writes Gemini's system prompt followed by the packet to a run
// file and names it in GEMINI_SYSTEM_MD. Gemini reads that file when it
// starts, fresh or resumed, and sends it as the systemInstruction of every
// model request, so an observed session received the packet. Without the
// system prompt to extend, nothing is delivered (replacing Gemini's own
// prompt with the packet alone would change how the agent behaves).
func (g gemini) deliver(p *Plan, d Decision, s geminiShape) {
	base, err := g.base(s)
	if err != nil {
		p.Notices = append(p.Notices, skipNotice(err.Error()))
		return
	}
	path := filepath.Join(d.RunDir, geminiPacketFile)
	p.Files = append(p.Files, File{Path: path, Content: strings.TrimRight(base, "\n") + "\n\n" + d.Packet})
	p.Env = map[string]string{EnvGeminiSystemMD: path}
	p.Confirm = ObservedWithPacket{}
}

func (g gemini) base(s geminiShape) (string, error) {
	if user, ok, err := geminiUserSystemMD(s); ok || err != nil {
		return user, err
	}
	if g.basePrompt != nil {
		return g.basePrompt(s)
	}
	return geminiDefaultPrompt(s)
}
