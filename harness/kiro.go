package harness

import (
	"strings"

	"github.com/ai-memory/ai-memory/transcript"
)

// kiroDescriptor is Kiro CLI (AWS's kiro-cli, installed by its own script:
// it cannot install here). Facts from kiro.dev's CLI docs, the issue
// tracker (kirodotdev/Kiro#9066, 2.5.1) and the anchor's verified 2.16.2
// adapter; a fake follows them.
func kiroDescriptor() Descriptor {
	return Descriptor{
		Name:       "kiro",
		Aliases:    []string{"kiro-cli"},
		Product:    "Kiro CLI",
		Executable: "kiro-cli",
		Install:    "curl -fsSL https://cli.kiro.dev/install | bash",
		Tested:     []string{"2.16.2"},
		Planner:    kiro{},
		Source:     transcript.KiroSource(),
	}
}

// kiro plans launches of Kiro CLI (`kiro-cli` is short for `kiro-cli chat`).
//
// Rules:
//   - fresh: nothing to add; Kiro makes the id (a UUID; v3 "sess_<uuid>")
//     and prints none in --no-interactive mode (#9066), so the session is
//     found in the store after the run.
//   - resume: `--resume-id <id>` appended; an id of the v3 engine
//     ("sess_…") also gets `--v3` first (the engine is chosen per run).
//   - native selectors: --resume/-r (newest of the cwd), --resume-id <id>,
//     --resume-picker.
//   - yolo: --trust-all-tools (v2); the v3 engine has none (permissions
//     live in its permissions.yaml): a notice says so.
//   - print mode: --no-interactive.
//   - handoff: Kiro has no per-run context route (context comes from agent
//     configs and their hooks, files in ~/.kiro or .kiro), so no packet is
//     delivered; one line points at `ai-memory workstream-search`.
type kiro struct{}

var _ Planner = kiro{}

// kiroUtilities are the subcommands other than chat.
var kiroUtilities = map[string]bool{
	"debug": true, "settings": true, "setup": true, "update": true, "diagnostic": true, "init": true,
	"theme": true, "issue": true, "login": true, "logout": true, "whoami": true, "profile": true,
	"user": true, "doctor": true, "launch": true, "quit": true, "restart": true, "integrations": true,
	"translate": true, "dashboard": true, "mcp": true, "inline": true, "agent": true, "acp": true,
	"help": true, "version": true,
}

var kiroValueOpts = map[string]bool{"--agent": true, "--resume-id": true, "--model": true,
	"--agent-engine": true, "--trust-tools": true, "--mode": true}

const (
	kiroResumeOpt = "--resume-id"
	kiroV3        = "--v3"
	kiroYolo      = "--trust-all-tools"
	// KiroNoDelivery is the line printed instead of a handoff.
	kiroNoDelivery = "Kiro CLI has no per-run context route, so no handoff packet was delivered; the workstream's history is available through `ai-memory workstream-search` inside the agent"
)

// Parse reads the kiro-cli argv.
func (kiro) Parse(args []string, stdinTTY bool) (Intent, error) {
	args, yolo := stripYolo(args)
	in := Intent{Args: args, Yolo: yolo, Interactive: stdinTTY && !hasFlag(args, "--no-interactive")}
	if kiroPassthrough(args) {
		in.Mode = ModePassthrough
		return in, nil
	}
	if i := lastFlagIndex(args, kiroResumeOpt); i >= 0 {
		id, _ := flagValueAt(args, i)
		in.Selector, in.SelectedID = true, id
		return in, nil
	}
	in.Selector = hasFlag(args, "-r", "--resume", "--resume-picker")
	return in, nil
}

// Build applies the rules above for the launcher's decision.
func (kiro) Build(in Intent, d Decision) (Plan, error) {
	if in.Mode == ModePassthrough {
		return Plan{Args: in.Args}, nil
	}
	args := in.Args
	var p Plan
	switch {
	case in.Selector:
		p.SessionID, p.Resume = in.SelectedID, in.SelectedID != ""
	case d.Resume != "":
		p.SessionID, p.Resume = d.Resume, true
		if strings.HasPrefix(d.Resume, "sess_") && !hasFlag(args, kiroV3) {
			args = insertAt(args, kiroChatIndex(args), kiroV3)
		}
		args = appendOptions(args, kiroResumeOpt, d.Resume)
	}
	v3 := hasFlag(args, kiroV3) || strings.HasPrefix(p.SessionID, "sess_")
	switch {
	case !d.Yolo || hasFlag(args, kiroYolo, "-a", "--trust-tools"):
	case v3:
		p.Notices = append(p.Notices, "Kiro's v3 engine has no flag that approves every tool (it reads permissions.yaml); --yolo changes nothing")
	default:
		args = appendOptions(args, kiroYolo)
	}
	if d.Packet != "" {
		p.Notices = append(p.Notices, kiroNoDelivery)
	}
	p.Args = args
	return p, nil
}

// kiroChatIndex is where --v3 goes: after a leading `chat`, else first.
func kiroChatIndex(args []string) int {
	if len(args) > 0 && args[0] == "chat" {
		return 1
	}
	return 0
}

// kiroPassthrough reports help, version, listing and deleting sessions, and
// utility subcommands (the first positional, skipping option values).
func kiroPassthrough(args []string) bool {
	if hasFlag(args, "-h", "--help", "-V", "--version", "--help-all", "-l", "--list-sessions",
		"-d", "--delete-session", "--list-models") {
		return true
	}
	end := optionsEnd(args)
	for i := 0; i < end; i++ {
		switch a := args[i]; {
		case kiroValueOpts[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return kiroUtilities[a]
		}
	}
	return false
}
