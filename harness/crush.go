package harness

import (
	"strings"

	"github.com/ai-memory/ai-memory/transcript"
)

// crushDescriptor is Crush (charmbracelet/crush). Its npm package cannot
// install here (the postinstall downloads from GitHub), so its facts were
// read in its source at v0.90.0 and a fake follows them.
func crushDescriptor() Descriptor {
	return Descriptor{
		Name:       "crush",
		Product:    "Crush",
		Executable: "crush",
		Install:    "npm install -g @charmland/crush",
		Tested:     []string{"0.90.0"},
		Planner:    crush{},
		Check:      crushCheck,
		Source:     transcript.CrushSource(),
		// `mcp add` in the run's crushrc (crush_mcp.go).
		MCPToolName: crushMCPToolName,
	}
}

// crush plans launches of Crush, a cobra CLI.
//
// Rules, from internal/cmd/root.go and run.go of v0.90.0:
//   - fresh: nothing to add; Crush makes a UUID, found in its database
//     after exit (`crush run` does not print it).
//   - resume: `--session <id>` at the front for the TUI, right after `run`
//     (alias `r`) for print mode; both accept -s/--session and
//     -C/--continue (mutually exclusive). A short id is resolved by Crush.
//   - yolo: -y/--yolo exists on the root (TUI) command only; `crush run`
//     already approves every tool and rejects --yolo, so nothing is added
//     there.
//   - handoff: CRUSH_GLOBAL_CONFIG names a per-run directory whose crushrc
//     sources the user's and adds the packet as a global context path (see
//     crushGlobalConfig), fresh and resumed. Not under CRUSH_CLIENT_SERVER
//     (see crushClientServer): then nothing is delivered and one line says
//     why.
type crush struct {
	// readFile reads the user's global config files (nil = os.ReadFile).
	readFile func(string) ([]byte, error)
}

var _ Planner = crush{}

// crushUtilities are subcommands and cobra aliases that run no session.
var crushUtilities = map[string]bool{
	"dirs": true, "projects": true, "update-providers": true, "logs": true, "logout": true,
	"signout": true, "schema": true, "login": true, "auth": true, "stats": true, "session": true,
	"sessions": true, "s": true, "models": true, "server": true, "completion": true, "help": true,
}

// crushValueOpts are options that take a separate value (root persistent,
// root and run flags).
var crushValueOpts = map[string]bool{
	"-c": true, "--cwd": true, "-D": true, "--data-dir": true, "-H": true, "--host": true,
	"-s": true, "--session": true, "-m": true, "--model": true, "--small-model": true,
	"--channels": true,
}

const (
	crushRun        = "run"
	crushSessionOpt = "--session"
	crushYolo       = "--yolo"
)

// Parse reads the Crush argv: `run` (or `r`) is noninteractive; help,
// version and utility subcommands pass through; -s/--session and
// -C/--continue are native selectors. The wrapper's --yolo and Crush's own
// are the same token: both set Intent.Yolo and Build adds it back where
// Crush has it.
func (crush) Parse(args []string, stdinTTY bool) (Intent, error) {
	args, yolo := stripYolo(args)
	sub, _ := crushSubcommand(args)
	in := Intent{Args: args, Yolo: yolo, Interactive: stdinTTY && sub != crushRun}
	if crushPassthrough(args, sub) {
		in.Mode = ModePassthrough
		return in, nil
	}
	in.Selector, in.SelectedID = crushSelector(args)
	return in, nil
}

// Build applies the rules above for the launcher's decision.
func (c crush) Build(in Intent, d Decision) (Plan, error) {
	if in.Mode == ModePassthrough {
		return Plan{Args: in.Args}, nil
	}
	args := in.Args
	sub, subIdx := crushSubcommand(args)
	var p Plan
	switch {
	case in.Selector:
		if in.SelectedID != "" {
			p.SessionID, p.Resume = in.SelectedID, true
		}
	case d.Resume != "":
		p.SessionID, p.Resume = d.Resume, true
		args = insertAt(args, subIdx+1, crushSessionOpt, d.Resume)
	}
	if d.Yolo && sub != crushRun && !hasFlag(args, "-y", crushYolo) {
		args = appendOptions(args, crushYolo)
	}
	switch {
	case (d.Packet == "" && d.MCP == nil) || d.RunDir == "":
	case crushClientServer(d.Getenv):
		p.Notices = append(p.Notices, crushClientServerNotice)
	default:
		c.deliver(&p, d)
	}
	p.Args = args
	return p, nil
}

// crushSubcommand returns the first positional before "--" with `r`
// normalised to "run", and its index ("" and -1 for the TUI).
func crushSubcommand(args []string) (string, int) {
	end := optionsEnd(args)
	for i := 0; i < end; i++ {
		a := args[i]
		switch {
		case crushValueOpts[a]:
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		case a == "r":
			return crushRun, i
		default:
			return a, i
		}
	}
	return "", -1
}

// crushPassthrough reports help/version or a utility subcommand. The
// root's -v is --version; run's -v is --verbose.
func crushPassthrough(args []string, sub string) bool {
	if hasFlag(args, "-h", "--help") || crushUtilities[sub] {
		return true
	}
	return sub != crushRun && hasFlag(args, "-v", "--version")
}

// crushSelector reads -s/--session <id> (the id only when it is a full
// UUID: a short id is resolved by Crush and found after exit) and
// -C/--continue.
func crushSelector(args []string) (bool, string) {
	if i := lastFlagIndex(args, "-s", crushSessionOpt); i >= 0 {
		id, _ := flagValueAt(args, i)
		if !isUUID(id) {
			id = ""
		}
		return true, strings.ToLower(id)
	}
	return hasFlag(args, "-C", "--continue"), ""
}
