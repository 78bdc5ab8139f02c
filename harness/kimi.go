package harness

import (
	"path/filepath"
	"strings"

	"github.com/ai-memory/ai-memory/transcript"
)

// kimiDescriptor is Kimi Code (`@moonshot-ai/kimi-code`; the npm package
// `kimi-code` is unrelated). Facts from `kimi --help` of 2.1.0 and from
// runs against the mock model.
func kimiDescriptor() Descriptor {
	return Descriptor{
		Name:       "kimi",
		Aliases:    []string{"kimi-code"},
		Product:    "Kimi Code",
		Executable: "kimi",
		Install:    "npm install -g @moonshot-ai/kimi-code",
		Tested:     []string{"2.1.0"},
		// Kimi exports no session id to the shells it runs.
		Planner: kimi{},
		Source:  transcript.KimiSource(),
	}
}

// kimi plans launches of Kimi Code.
type kimi struct{}

var _ Planner = kimi{}

const (
	kimiSessionOpt  = "--session"
	kimiAuto        = "--auto"
	kimiAgentFile   = "--agent-file"
	kimiPacketName  = "kimi-handoff.md"
	kimiPrintYolo   = "Kimi Code's print mode already runs tools without asking (and refuses --yolo/--auto), so --yolo adds nothing there"
	kimiResumedNote = "Kimi Code takes no extra context when resuming a session (its agent and prompt are fixed when the session is created); the history is available through `ai-memory workstream-search`"
	kimiAgentNote   = "your --agent/--agent-file choice leaves no room for the handoff agent file; the history is available through `ai-memory workstream-search`"
)

// kimiUtilities are Kimi's subcommands (kimi --help, 2.1.0); fork makes a
// new session from another without running the agent.
var kimiUtilities = map[string]bool{
	"export": true, "fork": true, "provider": true, "session": true, "acp": true, "web": true,
	"server": true, "rc": true, "remote": true, "login": true, "doctor": true, "vis": true,
	"install-desktop": true, "migrate": true, "upgrade": true, "update": true, "help": true,
}

// kimiValueOpts take a value (-S/--session/-r an optional one: the next
// word unless it is an option, as commander does).
var kimiValueOpts = map[string]bool{
	"-S": true, kimiSessionOpt: true, "-r": true, "-m": true, "--model": true, "-p": true, "--prompt": true,
	"--output-format": true, "--skills-dir": true, "--agent": true, kimiAgentFile: true, "--add-dir": true,
}

// Parse reads the Kimi argv: -p/--prompt is noninteractive; help, version
// and the subcommands pass through; -S/--session (and the hidden -r) and
// -c/--continue are native selectors.
func (kimi) Parse(args []string, stdinTTY bool) (Intent, error) {
	args, yolo := stripYolo(args)
	in := Intent{Args: args, Yolo: yolo, Interactive: stdinTTY && !kimiPrint(args)}
	if kimiPassthrough(args) {
		in.Mode = ModePassthrough
		return in, nil
	}
	in.Selector = hasFlag(args, "-S", kimiSessionOpt, "-r", "-c", "--continue")
	if i := lastFlagIndex(args, "-S", kimiSessionOpt, "-r"); i >= 0 {
		in.SelectedID, _ = flagValueAt(args, i)
	}
	return in, nil
}

func kimiPrint(args []string) bool { return hasFlag(args, "-p", "--prompt") }

func kimiPassthrough(args []string) bool {
	end := optionsEnd(args)
	for i := 0; i < end; i++ {
		a := args[i]
		switch {
		case isFlag(a, "--help", "-h", "--version", "-V"):
			return true
		case kimiValueOpts[a]:
			if _, vi := flagValueAt(args, i); vi > i {
				i = vi
			}
		case strings.HasPrefix(a, "-"):
		default:
			return kimiUtilities[a] // the first positional decides
		}
	}
	return false
}

// Build applies the Kimi rules: a fresh session gets nothing (Kimi makes
// the id, found after the run), the linked session is resumed with
// -S <id>, nothing is added when the user chose natively; --yolo becomes
// --auto ("never ask") in the TUI and nothing in print mode, which runs
// tools unasked. The packet goes only to a fresh session, as an agent file
// (--agent-file) whose body is ${base_prompt} followed by the packet, so
// the default prompt stays; Kimi refuses --agent-file with a resumed
// session and replays the prompt fixed at creation, so a resumed session
// gets no packet, only a notice.
func (kimi) Build(in Intent, d Decision) (Plan, error) {
	if in.Mode == ModePassthrough {
		return Plan{Args: in.Args}, nil
	}
	var plan Plan
	args := in.Args
	switch {
	case in.Selector:
		plan.SessionID, plan.Resume = in.SelectedID, in.SelectedID != ""
	case d.Resume != "":
		plan.SessionID, plan.Resume = d.Resume, true
		args = appendOptions(args, "-S", d.Resume)
	}
	switch {
	case !d.Yolo:
	case kimiPrint(args):
		plan.Notices = append(plan.Notices, kimiPrintYolo)
	case !hasFlag(args, kimiAuto, "-y"):
		args = appendOptions(args, kimiAuto)
	}
	plan.Args = kimiDeliver(&plan, args, in.Selector || d.Resume != "", d)
	return plan, nil
}

// kimiDeliver adds the agent file of a fresh session's packet.
func kimiDeliver(plan *Plan, args []string, resumed bool, d Decision) []string {
	if d.Packet == "" || d.RunDir == "" {
		return args
	}
	switch {
	case resumed:
		plan.Notices = append(plan.Notices, kimiResumedNote)
		return args
	case hasFlag(args, "--agent", kimiAgentFile):
		plan.Notices = append(plan.Notices, kimiAgentNote)
		return args
	}
	path := filepath.Join(d.RunDir, kimiPacketName)
	body := "---\nname: ai-memory-handoff\ndescription: Kimi Code's default agent with the ai-memory handoff packet\n---\n${base_prompt}\n\n" + d.Packet
	plan.Files = append(plan.Files, File{Path: path, Content: body})
	plan.Confirm = ObservedWithPacket{}
	return appendOptions(args, kimiAgentFile, path)
}
