package harness

import (
	"path/filepath"
	"strings"

	"github.com/ai-memory/ai-memory/transcript"
)

// copilotDescriptor is GitHub Copilot CLI (`@github/copilot`, a native
// binary behind an npm loader). Facts from `copilot --help` and `copilot
// help environment` of 1.0.102 and from runs against the mock model.
func copilotDescriptor() Descriptor {
	return Descriptor{
		Name:       "copilot",
		Aliases:    []string{"copilot-cli", "github-copilot"},
		Product:    "GitHub Copilot CLI",
		Executable: "copilot",
		Install:    "npm install -g @github/copilot",
		Tested:     []string{"1.0.102"},
		// Copilot exports no session id to the shells it runs.
		Planner: copilot{},
		Source:  transcript.CopilotSource(),
		// --additional-mcp-config and --allow-tool (copilot_mcp.go).
		MCPToolName: copilotMCPToolName,
	}
}

// copilot plans launches of GitHub Copilot CLI.
type copilot struct{}

var _ Planner = copilot{}

const (
	copilotSessionIDOpt = "--session-id"
	copilotResumeOpt    = "--resume"
	copilotYolo         = "--allow-all"
	// copilotInstrEnv is Copilot's comma-separated list of extra directories
	// whose *.instructions.md files are appended to the system prompt.
	copilotInstrEnv    = "COPILOT_CUSTOM_INSTRUCTIONS_DIRS"
	copilotPacketName  = "ai-memory-handoff.instructions.md"
	copilotNoInstrOpt  = "--no-custom-instructions"
	copilotNoInstrNote = "--no-custom-instructions also turns off the handoff route (custom instructions); the history is available through `ai-memory workstream-search`"
)

// copilotUtilities are Copilot's subcommands (copilot --help, 1.0.102).
var copilotUtilities = map[string]bool{
	"app": true, "login": true, "help": true, "init": true, "config": true, "update": true,
	"version": true, "workflow": true, "sessions": true, "memories": true, "plugin": true,
	"mcp": true, "skill": true, "instruction": true, "lsp": true, "sandbox": true, "completion": true,
}

// copilotValueOpts are Copilot's options that take a value (required or
// optional; for optional and multi-value ones the next word that is not an
// option is taken as the value, as clap does), so a value is never
// mistaken for a subcommand.
var copilotValueOpts = map[string]bool{
	"-i": true, "--interactive": true, "-p": true, "--prompt": true, "--model": true,
	"--reasoning-effort": true, "--context": true, "--auto-tier": true, "--agent": true,
	"-r": true, copilotResumeOpt: true, "-n": true, "--name": true, copilotSessionIDOpt: true,
	"--connect": true, "-C": true, "--log-dir": true, "--extension-sdk-path": true, "--log-level": true,
	"--stream": true, "--output-format": true, "--share": true, "--add-dir": true, "--attachment": true,
	"--disable-mcp-server": true, "--add-github-mcp-toolset": true, "--add-github-mcp-tool": true,
	"--plugin-dir": true, "--additional-mcp-config": true, "--mcp-github-auth": true,
	"--allow-tool": true, "--deny-tool": true, "--available-tools": true, "--excluded-tools": true,
	"--secret-env-vars": true, "--allow-url": true, "--deny-url": true, "--max-autopilot-continues": true,
	"--mode": true, "--bash-env": true, "--mouse": true, "--environment-host": true,
	"--environment-compute-id": true, "--dynamic-retrieval": true, "--enable-mcp-server": true,
	"--max-ai-credits": true, "--usage-output-file": true,
}

// Parse reads the Copilot argv: -p/--prompt is noninteractive (-i stays
// interactive); help, version, ACP server mode, --connect (a remote
// session) and the subcommands pass through; --resume, --continue and
// --session-id are native selectors.
func (copilot) Parse(args []string, stdinTTY bool) (Intent, error) {
	args, yolo := stripYolo(args)
	in := Intent{Args: args, Yolo: yolo, Interactive: stdinTTY && !hasFlag(args, "-p", "--prompt")}
	if copilotPassthrough(args) {
		in.Mode = ModePassthrough
		return in, nil
	}
	in.Selector = hasFlag(args, copilotResumeOpt, "-r", "--continue", copilotSessionIDOpt)
	in.SelectedID = copilotSelectedID(args)
	return in, nil
}

func copilotPassthrough(args []string) bool {
	end := optionsEnd(args)
	for i := 0; i < end; i++ {
		a := args[i]
		switch {
		case isFlag(a, "--help", "-h", "--version", "-v", "--acp", "--connect"):
			return true
		case copilotValueOpts[a]:
			if _, vi := flagValueAt(args, i); vi > i {
				i = vi
			}
		case strings.HasPrefix(a, "-"):
		default:
			return copilotUtilities[a] // the first positional decides
		}
	}
	return false
}

// copilotSelectedID is the session the user named by full id with
// --session-id or --resume (a name or an id prefix names no exact id).
func copilotSelectedID(args []string) string {
	i := lastFlagIndex(args, copilotResumeOpt, "-r", copilotSessionIDOpt)
	if i < 0 {
		return ""
	}
	if v, _ := flagValueAt(args, i); isUUID(v) {
		return v
	}
	return ""
}

// Build applies the Copilot rules: a fresh session gets --session-id
// <uuid> (Copilot 1.0.51 and later create the session with that id), the
// linked session is resumed with --resume=<id>, nothing is added when the
// user chose natively; --yolo becomes --allow-all; the packet goes in a
// run file <run>/ai-memory-handoff.instructions.md whose directory is added
// to COPILOT_CUSTOM_INSTRUCTIONS_DIRS, which Copilot reads on every start,
// fresh or resumed, and appends to the system prompt.
func (c copilot) Build(in Intent, d Decision) (Plan, error) {
	if in.Mode == ModePassthrough {
		return Plan{Args: in.Args}, nil
	}
	var plan Plan
	args := in.Args
	switch {
	case in.Selector:
		if in.SelectedID != "" {
			plan.SessionID = in.SelectedID
			plan.Resume = hasFlag(args, copilotResumeOpt, "-r")
		}
	case d.Resume != "":
		plan.SessionID, plan.Resume = d.Resume, true
		args = appendOptions(args, copilotResumeOpt+"="+d.Resume)
	case d.NewSessionID != "":
		plan.SessionID = d.NewSessionID
		args = appendOptions(args, copilotSessionIDOpt, d.NewSessionID)
	}
	if d.Yolo && !hasFlag(args, copilotYolo) {
		args = appendOptions(args, copilotYolo)
	}
	copilotDeliver(&plan, args, d)
	if d.MCP != nil {
		var err error
		if args, err = c.registerMCP(args, *d.MCP); err != nil {
			return Plan{}, err
		}
	}
	plan.Args = args
	return plan, nil
}

// copilotDeliver plans the packet's instructions file and the environment
// that names its directory, after the user's own directories.
func copilotDeliver(plan *Plan, args []string, d Decision) {
	if d.Packet == "" || d.RunDir == "" {
		return
	}
	if hasFlag(args, copilotNoInstrOpt) {
		plan.Notices = append(plan.Notices, copilotNoInstrNote)
		return
	}
	plan.Files = append(plan.Files, File{Path: filepath.Join(d.RunDir, copilotPacketName), Content: d.Packet})
	dirs := d.RunDir
	if d.Getenv != nil {
		if own := strings.Trim(strings.TrimSpace(d.Getenv(copilotInstrEnv)), ","); own != "" {
			dirs = own + "," + d.RunDir
		}
	}
	plan.Env = map[string]string{copilotInstrEnv: dirs}
	plan.Confirm = ObservedWithPacket{}
}
