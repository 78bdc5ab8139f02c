package harness

import (
	"strings"

	"github.com/ai-memory/ai-memory/transcript"
)

// antigravityDescriptor is Google's Antigravity CLI (`agy`), which installs
// only from antigravity.google: it cannot install here. Facts from the
// anchor's adapter (akitaonrails/ai-memory, verified on agy 1.1.7) and
// public programs that drive agy 1.1.4-1.2.5 (docs/harnesses.md lists
// them); a fake follows them.
func antigravityDescriptor() Descriptor {
	return Descriptor{
		Name:       "antigravity",
		Aliases:    []string{"agy", "antigravity-cli"},
		Product:    "Antigravity CLI",
		Executable: "agy",
		Install:    "the installer at https://antigravity.google",
		Tested:     []string{"1.1.7"},
		Planner:    antigravity{},
		Source:     transcript.AntigravitySource(),
		// Its store yields the user's prompts only (transcript/antigravity.go).
		PromptsOnly: true,
		Check:       antigravityCheck,
	}
}

// antigravityCheck tells what ai-memory cannot do with agy, so a user sees
// it before relying on it: no handoff, and only prompts imported.
func antigravityCheck(CheckEnv) []Finding {
	return []Finding{
		{Level: LevelInfo, Check: "delivery", Detail: "agy has no per-run context route: runs get no handoff packet; the agent can run `ai-memory workstream-search`"},
		{Level: LevelInfo, Check: "import", Detail: "only your prompts are imported (agy's replies and tool steps are undocumented protobuf); other harnesses' packets hold only those"},
	}
}

// antigravity plans launches of agy.
//
// Rules:
//   - fresh: nothing to add; agy makes the conversation id (it arrives only
//     in the `init` event of --output-format stream-json), so the
//     conversation is found in the store after the run.
//   - resume: `--conversation <id>`.
//   - native selectors: --conversation <id>, -c/--continue.
//   - print mode: -p/--print/--prompt <prompt>. The flag takes the next
//     word whatever it is (a flag after it becomes the prompt), so words we
//     add go at the end of the options, or before a trailing bare -p (whose
//     prompt then comes from stdin).
//   - yolo: --dangerously-skip-permissions.
//   - handoff: agy has no per-run context route (hooks live in
//     ~/.gemini/config/hooks.json or the project's .agents/), so no packet
//     is delivered; one line points at `ai-memory workstream-search`.
type antigravity struct{}

var _ Planner = antigravity{}

// agyUtilities are the subcommands that run no conversation.
var agyUtilities = map[string]bool{"agent": true, "agents": true, "changelog": true, "help": true,
	"install": true, "models": true, "plugin": true, "plugins": true, "update": true}

// agyValueOpts take the next word as their value, whatever it is.
var agyValueOpts = map[string]bool{"-p": true, "--print": true, "--prompt": true, "-i": true,
	"--prompt-interactive": true, "--conversation": true, "--model": true, "--effort": true,
	"--mode": true, "--add-dir": true, "--output-format": true, "--input-format": true,
	"--print-timeout": true, "--gemini_dir": true}

const (
	agyConversation = "--conversation"
	agyYolo         = "--dangerously-skip-permissions"
	agyNoDelivery   = "Antigravity CLI has no per-run context route, so no handoff packet was delivered; the workstream's history is available through `ai-memory workstream-search` inside the agent"
)

// agyArgv is an agy argv read the way agy reads it.
type agyArgv struct {
	opts     map[string]string // option name -> value ("" for a switch); the last one wins
	sub      string            // the first positional word
	dangling int               // index of a value option ending the argv, or -1
}

func scanAgy(args []string) agyArgv {
	a := agyArgv{opts: map[string]string{}, dangling: -1}
	end := optionsEnd(args)
	for i := 0; i < end; i++ {
		name, value, inline := strings.Cut(args[i], "=")
		switch {
		case !strings.HasPrefix(name, "-") || name == "-":
			if a.sub == "" {
				a.sub = args[i]
			}
		case agyValueOpts[name] && !inline && i+1 >= end:
			a.dangling = i
			a.opts[name] = ""
		case agyValueOpts[name] && !inline:
			i++
			a.opts[name] = args[i]
		default:
			a.opts[name] = value
		}
	}
	return a
}

func (a agyArgv) has(names ...string) bool {
	for _, n := range names {
		if _, ok := a.opts[n]; ok {
			return true
		}
	}
	return false
}

// Parse reads the agy argv.
func (antigravity) Parse(args []string, stdinTTY bool) (Intent, error) {
	args, yolo := stripYolo(args)
	a := scanAgy(args)
	in := Intent{Args: args, Yolo: yolo, Interactive: stdinTTY && !a.has("-p", "--print", "--prompt")}
	if a.has("-h", "--help", "-v", "--version") || agyUtilities[a.sub] {
		in.Mode = ModePassthrough
		return in, nil
	}
	if id, ok := a.opts[agyConversation]; ok {
		in.Selector, in.SelectedID = true, id
		return in, nil
	}
	in.Selector = a.has("-c", "--continue")
	return in, nil
}

// Build applies the rules above for the launcher's decision.
func (antigravity) Build(in Intent, d Decision) (Plan, error) {
	if in.Mode == ModePassthrough {
		return Plan{Args: in.Args}, nil
	}
	a := scanAgy(in.Args)
	var p Plan
	var extra []string
	switch {
	case in.Selector:
		p.SessionID, p.Resume = in.SelectedID, in.SelectedID != ""
	case d.Resume != "":
		p.SessionID, p.Resume = d.Resume, true
		extra = append(extra, agyConversation, d.Resume)
	}
	if d.Yolo && !a.has(agyYolo) {
		extra = append(extra, agyYolo)
	}
	if d.Packet != "" {
		p.Notices = append(p.Notices, agyNoDelivery)
	}
	p.Args = in.Args
	switch {
	case len(extra) == 0:
	case a.dangling >= 0:
		p.Args = insertAt(in.Args, a.dangling, extra...)
	default:
		p.Args = appendOptions(in.Args, extra...)
	}
	return p, nil
}
