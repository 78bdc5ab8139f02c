package harness

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ai-memory/ai-memory/transcript"
)

// piDescriptor is Pi (pi-coding-agent): `@mariozechner/pi-coding-agent` up
// to 0.73.1 and its renamed successor `@earendil-works/pi-coding-agent`.
func piDescriptor() Descriptor {
	return Descriptor{
		Name:       "pi",
		Aliases:    []string{"pi-coding-agent"},
		Product:    "Pi",
		Executable: "pi",
		Install:    "npm install -g @earendil-works/pi-coding-agent",
		Tested:     []string{"0.73.1", "1.6.0"},
		// Pi 1.x exports it to its bash tool (0.73.1 sets nothing).
		SessionEnv:  []string{"PI_SESSION_ID"},
		Planner:     pi{},
		Source:      transcript.PiSource(),
		MCPToolName: piMCPToolName,
	}
}

// pi plans launches of Pi. version reports the version of the executable
// (nil means running `<exe> --version`); tests replace it.
type pi struct {
	version func(exe string) (major, minor int, ok bool)
}

var _ Planner = pi{}

const (
	piSessionOpt   = "--session"
	piSessionIDOpt = "--session-id"
	piAppendOpt    = "--append-system-prompt"
	piPacketName   = "pi-packet.md"
	piYoloNotice   = "Pi has no tool-permission gate, so --yolo changes nothing for it"
)

// piUtilities are Pi's subcommands (first positional) that run a utility.
var piUtilities = map[string]bool{
	"install": true, "remove": true, "uninstall": true, "update": true, "list": true,
	"config": true, "auth": true, "mcp": true,
}

// piValueOpts are Pi's options that take a separate value (pi --help of
// 0.73.1 and 1.6.0), so a value is never mistaken for a subcommand or id.
var piValueOpts = map[string]bool{
	"--provider": true, "--model": true, "--api-key": true, "--system-prompt": true,
	piAppendOpt: true, "--mode": true, piSessionOpt: true, piSessionIDOpt: true, "--fork": true,
	"--session-dir": true, "--name": true, "-n": true, "--models": true, "--tools": true, "-t": true,
	"--exclude-tools": true, "-xt": true, "--thinking": true, "--extension": true, "-e": true,
	"--skill": true, "--prompt-template": true, "--theme": true, "--use-theme": true, "--tui-mode": true,
}

// Parse reads the Pi argv: -p/--print (and --mode json|rpc) is
// noninteractive; help, version, --list-models, --export, --no-session and
// the utility subcommands pass through; --session, --session-id,
// --continue, --resume and --fork are native selectors.
func (pi) Parse(args []string, stdinTTY bool) (Intent, error) {
	args, yolo := stripYolo(args)
	in := Intent{Args: args, Yolo: yolo, Interactive: stdinTTY && !piPrint(args)}
	if piPassthrough(args) {
		in.Mode = ModePassthrough
		return in, nil
	}
	in.Selector = hasFlag(args, piSessionOpt, piSessionIDOpt, "--continue", "-c", "--resume", "-r", "--fork")
	in.SelectedID = piSelectedID(args)
	return in, nil
}

// piPrint reports print mode: -p/--print, or an output mode that is not
// the TUI.
func piPrint(args []string) bool {
	if hasFlag(args, "-p", "--print") {
		return true
	}
	if i := lastFlagIndex(args, "--mode"); i >= 0 {
		v, _ := flagValueAt(args, i)
		return v == "json" || v == "rpc"
	}
	return false
}

func piPassthrough(args []string) bool {
	end := optionsEnd(args)
	for i := 0; i < end; i++ {
		a := args[i]
		switch {
		case isFlag(a, "--help", "-h", "--version", "-v", "--list-models", "--export", "--no-session"):
			return true
		case piValueOpts[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return piUtilities[a] // the first positional decides
		}
	}
	return false
}

// piSelectedID is the session id the user named with --session-id or
// --session (a path or an id prefix names no exact id).
func piSelectedID(args []string) string {
	i := lastFlagIndex(args, piSessionOpt, piSessionIDOpt)
	if i < 0 {
		return ""
	}
	v, _ := flagValueAt(args, i)
	if strings.ContainsAny(v, `/\`) || strings.HasSuffix(v, ".jsonl") {
		return ""
	}
	return v
}

// Build applies the Pi rules: a fresh session gets --session-id <uuid> when
// the CLI has it (0.76.0 and later; older ones make their own id, found
// after the run), the linked session is resumed with --session <id> (every
// version), nothing is added when the user chose natively; --yolo maps to
// nothing (Pi asks no tool permissions); the packet goes in a run file
// passed with --append-system-prompt, which Pi re-reads on every start,
// fresh or resumed, and repeats with the user's own; the MCP server goes in
// a per-run extension (see pi_mcp.go).
func (p pi) Build(in Intent, d Decision) (Plan, error) {
	if in.Mode == ModePassthrough {
		return Plan{Args: in.Args}, nil
	}
	var plan Plan
	args := in.Args
	switch {
	case in.Selector:
		if in.SelectedID != "" {
			plan.SessionID = in.SelectedID
			plan.Resume = hasFlag(args, piSessionOpt)
		}
	case d.Resume != "":
		plan.SessionID, plan.Resume = d.Resume, true
		args = appendOptions(args, piSessionOpt, d.Resume)
	case d.NewSessionID != "" && p.hasSessionID(d.Executable):
		plan.SessionID = d.NewSessionID
		args = appendOptions(args, piSessionIDOpt, d.NewSessionID)
	}
	if d.Yolo {
		plan.Notices = append(plan.Notices, piYoloNotice)
	}
	if d.Packet != "" && d.RunDir != "" {
		path := filepath.Join(d.RunDir, piPacketName)
		plan.Files = append(plan.Files, File{Path: path, Content: d.Packet})
		args = appendOptions(args, piAppendOpt, path)
		plan.Confirm = ObservedWithPacket{}
	}
	if d.MCP != nil {
		var err error
		if args, err = p.registerMCP(&plan, args, d); err != nil {
			return Plan{}, err
		}
	}
	plan.Args = args
	return plan, nil
}

// hasSessionID reports whether the Pi at exe accepts --session-id (added in
// 0.76.0; 0.73.1 rejects it as an unknown option). An unknown version gets
// no id: starting without one works in every version.
func (p pi) hasSessionID(exe string) bool {
	probe := p.version
	if probe == nil {
		probe = piVersion
	}
	major, minor, ok := probe(exe)
	return ok && (major > 0 || minor >= 76)
}

var piVersionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^v?(\d+)\.(\d+)\.\d+`) })

// piVersion runs `<exe> --version` (Pi prints the bare version on stdout).
func piVersion(exe string) (major, minor int, ok bool) {
	if exe == "" {
		return 0, 0, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, exe, "--version").Output()
	if err != nil {
		return 0, 0, false
	}
	return parsePiVersion(string(out))
}

func parsePiVersion(s string) (major, minor int, ok bool) {
	m := piVersionRE().FindStringSubmatch(s)
	if m == nil {
		return 0, 0, false
	}
	major, _ = strconv.Atoi(m[1])
	minor, _ = strconv.Atoi(m[2])
	return major, minor, true
}
