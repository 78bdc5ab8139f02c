package harness

import (
	"path/filepath"
	"strings"
)

// opencode plans launches of OpenCode (npm opencode-ai 1.18, a yargs CLI).
// It is not in the registry yet: it joins when the per-harness descriptor
// lands, which also gives it the user's environment (see userConfig).
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
//     packet file (see OpenCodeConfigContent), fresh and resumed.
type opencode struct {
	// userConfig is the user's own OPENCODE_CONFIG_CONTENT ("" = unset);
	// the packet is merged into it, never put in its place.
	userConfig string
}

var _ Harness = opencode{}

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
	// opencodePacketFile is the packet's file name inside Request.RunDir.
	opencodePacketFile = "opencode-handoff.md"
)

func (opencode) Name() string       { return "opencode" }
func (opencode) Aliases() []string  { return []string{"open-code"} }
func (opencode) Executable() string { return "opencode" }

// Plan applies the rules above. It is pure: the user's config value comes
// from the planner itself, not from the process environment.
func (o opencode) Plan(r Request) (Plan, error) {
	args, yolo := stripYolo(r.Args)
	sub, subIdx := opencodeSubcommand(args)
	p := Plan{Interactive: r.StdinTTY && (sub != opencodeRun || hasFlag(args, "-i", "--interactive"))}
	if opencodePassthrough(args, sub, subIdx) {
		p.Args, p.Mode = args, ModePassthrough
		return p, nil
	}
	explicit, id := opencodeSelector(args)
	if explicit && r.Fresh {
		return Plan{}, ErrFreshWithSelector
	}
	switch {
	case explicit:
		p.ExplicitSelector, p.ExplicitSessionID = true, id
		if id != "" && !hasFlag(args, "--fork") {
			p.SessionID, p.Resume = id, true
		}
	case !r.Fresh && r.LinkedSessionID != "":
		p.SessionID, p.Resume = r.LinkedSessionID, true
		at := 0
		if sub == opencodeRun {
			at = subIdx + 1
		}
		args = insertAt(args, at, opencodeSessionOpt, r.LinkedSessionID)
	}
	if (yolo || r.Yolo) && !hasFlag(args, opencodeYolo) {
		args = appendOptions(args, opencodeYolo)
	}
	if r.Packet != "" {
		o.deliver(&p, r)
	}
	p.Args = args
	return p, nil
}

// deliver writes the packet to a run file and names it in
// OPENCODE_CONFIG_CONTENT, merged with the user's value. A user value that
// cannot be merged is left alone: the session starts without the handoff.
func (o opencode) deliver(p *Plan, r Request) {
	path := filepath.Join(r.RunDir, opencodePacketFile)
	content, err := OpenCodeConfigContent(o.userConfig, path)
	if err != nil {
		p.Notices = append(p.Notices, "handoff not delivered to OpenCode: "+err.Error())
		return
	}
	p.Files = append(p.Files, File{Path: path, Content: r.Packet})
	p.Env = map[string]string{EnvOpenCodeConfigContent: content}
	p.Delivery = DeliveryOnStart
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
