package harness

import (
	"path/filepath"
	"strings"

	"github.com/ai-memory/ai-memory/transcript"
)

// opencodeDescriptor is OpenCode (npm opencode-ai 1.18).
func opencodeDescriptor() Descriptor {
	return Descriptor{
		Name:        "opencode",
		Aliases:     []string{"open-code"},
		Product:     "OpenCode",
		Executable:  "opencode",
		Install:     "npm install -g opencode-ai",
		Tested:      []string{"1.18.33"},
		Planner:     opencode{},
		Source:      transcript.OpenCodeSource(),
		MCPToolName: opencodeMCPToolName,
		Check:       opencodeCheck,
	}
}

// opencode plans launches of OpenCode, a yargs CLI.
//
// Rules, from `opencode --help` / `opencode run --help` of 1.18.33:
//   - fresh: nothing to add; OpenCode makes the id (ses_…), which shows up
//     in its store and in every `run --format json` event.
//   - resume: `--session <id>`, at the front for the TUI and right after
//     `run` for print mode.
//   - native selectors: -s/--session <id> (resumes id), -c/--continue,
//     --fork (a new session with the history of -c or -s).
//   - yolo: --auto (both the TUI and run: "auto-approve permissions that are
//     not explicitly denied").
//   - print mode is `run` without -i/--interactive.
//   - handoff: OPENCODE_CONFIG_CONTENT with an instructions entry naming a
//     packet file (see OpenCodeConfigContent), fresh and resumed, merged
//     with the user's own value from Decision.Getenv.
//   - MCP: the same variable's mcp object gets a local server.
type opencode struct{}

var _ Planner = opencode{}

// opencodeUtilities are subcommands (and yargs aliases) that do not run a
// session: forwarded as typed, nothing imported. `pr` checks out a branch
// before starting, and `attach` drives a server elsewhere, so neither is a
// session of this checkout's store we could follow.
var opencodeUtilities = map[string]bool{
	"completion": true, "acp": true, "mcp": true, "attach": true, "debug": true,
	"providers": true, "auth": true, "agent": true, "upgrade": true, "uninstall": true,
	"serve": true, "web": true, "models": true, "stats": true, "export": true,
	"import": true, "github": true, "pr": true, "session": true, "plugin": true,
	"plug": true, "db": true,
}

// opencodeValueOpts are root and run options that take a separate value;
// they let us find the subcommand behind options.
var opencodeValueOpts = map[string]bool{
	"--log-level": true, "--port": true, "--hostname": true, "--mdns-domain": true,
	"--cors": true, "-m": true, "--model": true, "-s": true, "--session": true,
	"--prompt": true, "--agent": true, "--replay-limit": true, "--command": true,
	"--format": true, "-f": true, "--file": true, "--title": true, "--attach": true,
	"-p": true, "--password": true, "-u": true, "--username": true, "--dir": true,
	"--variant": true,
}

const (
	opencodeYolo       = "--auto"
	opencodeSessionOpt = "--session"
	opencodeRun        = "run"
	// EnvOpenCodeConfigContent is OpenCode's inline config, merged after the
	// user's config files (only managed enterprise config comes later).
	EnvOpenCodeConfigContent = "OPENCODE_CONFIG_CONTENT"
	// opencodePacketFile is the packet's file name inside Decision.RunDir.
	opencodePacketFile = "opencode-handoff.md"
)

// Parse reads the OpenCode argv: `run` without -i is noninteractive;
// help, version and utility subcommands pass through; -s/--session,
// -c/--continue and --fork are native selectors.
func (opencode) Parse(args []string, stdinTTY bool) (Intent, error) {
	args, yolo := stripYolo(args)
	sub, subIdx := opencodeSubcommand(args)
	in := Intent{Args: args, Yolo: yolo,
		Interactive: stdinTTY && (sub != opencodeRun || hasFlag(args, "-i", "--interactive"))}
	if opencodePassthrough(args, sub, subIdx) {
		in.Mode = ModePassthrough
		return in, nil
	}
	in.Selector, in.SelectedID = opencodeSelector(args)
	return in, nil
}

// Build applies the rules above for the launcher's decision.
func (o opencode) Build(in Intent, d Decision) (Plan, error) {
	if in.Mode == ModePassthrough {
		return Plan{Args: in.Args}, nil
	}
	args := in.Args
	var p Plan
	switch {
	case in.Selector:
		if in.SelectedID != "" && !hasFlag(args, "--fork") {
			p.SessionID, p.Resume = in.SelectedID, true
		}
	case d.Resume != "":
		p.SessionID, p.Resume = d.Resume, true
		at := 0
		if sub, subIdx := opencodeSubcommand(args); sub == opencodeRun {
			at = subIdx + 1
		}
		args = insertAt(args, at, opencodeSessionOpt, d.Resume)
	}
	if d.Yolo && !hasFlag(args, opencodeYolo) {
		args = appendOptions(args, opencodeYolo)
	}
	if d.Packet != "" || d.MCP != nil {
		o.configure(&p, d)
	}
	p.Args = args
	return p, nil
}

// configure delivers the packet and registers the MCP server through
// OPENCODE_CONFIG_CONTENT, merged with the user's value: the packet as a
// run file named in instructions, the server in mcp. A user value that
// cannot be merged is left alone: the session starts without either.
// OpenCode reads the instructions files when the session starts, so an
// observed session received the packet.
func (opencode) configure(p *Plan, d Decision) {
	user := ""
	if d.Getenv != nil {
		user = d.Getenv(EnvOpenCodeConfigContent)
	}
	path := ""
	if d.Packet != "" {
		path = filepath.Join(d.RunDir, opencodePacketFile)
	}
	content, err := openCodeConfig(user, path, d.MCP)
	if err != nil {
		if d.Packet != "" {
			p.Notices = append(p.Notices, skipNotice(err.Error()))
		} else {
			p.Notices = append(p.Notices, "ai-memory's MCP tools were not registered this time: "+err.Error())
		}
		return
	}
	p.Env = map[string]string{EnvOpenCodeConfigContent: content}
	if path != "" {
		p.Files = append(p.Files, File{Path: path, Content: d.Packet})
		p.Confirm = ObservedWithPacket{}
	}
}

// opencodeMCPToolName is how OpenCode names an MCP tool for the model:
// <server>_<tool>, characters outside [A-Za-z0-9_-] replaced by '_'.
func opencodeMCPToolName(server, tool string) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				return r
			}
			return '_'
		}, s)
	}
	return clean(server) + "_" + clean(tool)
}

// opencodeSubcommand returns the first positional before "--" and its index
// ("" and -1 for none: the TUI, whose positional is a project path).
func opencodeSubcommand(args []string) (string, int) {
	end := optionsEnd(args)
	for i := 0; i < end; i++ {
		a := args[i]
		switch {
		case opencodeValueOpts[a]:
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			return a, i
		}
	}
	return "", -1
}

// opencodePassthrough reports help/version or a utility subcommand.
func opencodePassthrough(args []string, sub string, subIdx int) bool {
	if hasFlag(args, "-h", "--help", "-v", "--version") {
		return true
	}
	return subIdx >= 0 && opencodeUtilities[sub]
}

// opencodeSelector reads -s/--session <id>, -c/--continue and --fork (the
// last -s wins, as in yargs).
func opencodeSelector(args []string) (explicit bool, id string) {
	if i := lastFlagIndex(args, "-s", opencodeSessionOpt); i >= 0 {
		id, _ = flagValueAt(args, i)
		return true, id
	}
	return hasFlag(args, "-c", "--continue", "--fork"), ""
}
