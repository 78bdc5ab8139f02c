package harness

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/ai-memory/ai-memory/transcript"
)

// ompDescriptor is oh-my-pi (`@oh-my-pi/pi-coding-agent`, binary `omp`, a
// Pi fork that runs on Bun). Facts checked against 18.2.3 run offline and
// its shipped source (src/cli/args.ts, flag-tables.ts, cli-commands.ts,
// session/session-paths.ts): docs/harnesses.md "oh-my-pi".
func ompDescriptor() Descriptor {
	return Descriptor{
		Name:       "omp",
		Aliases:    []string{"oh-my-pi"},
		Product:    "oh-my-pi",
		Executable: "omp",
		Install:    "npm install -g @oh-my-pi/pi-coding-agent, with Bun on PATH",
		Tested:     []string{"18.2.3"},
		Planner:    omp{},
		Source:     transcript.OmpSource(),
	}
}

// omp plans launches of oh-my-pi.
type omp struct{}

var _ Planner = omp{}

const (
	ompResumeOpt = "--resume"
	ompAppendOpt = "--append-system-prompt"
	ompYolo      = "--auto-approve"
	ompModeOpt   = "--approval-mode"
	ompPacket    = "omp-packet.md"
	// ompYoloModeNotice: OMP's last approval setting wins, so ours would
	// silently override the user's own --approval-mode.
	ompYoloModeNotice = "--yolo was not applied: you chose --approval-mode yourself"
	ompMergedNotice   = "your --append-system-prompt was kept and ai-memory's handoff packet was appended to it for this run"
)

// ompCommands are OMP's subcommands and their aliases (cli-commands.ts),
// except launch, which starts a session; and the reserved words OMP
// answers with a hint instead of a session.
var ompCommands = map[string]bool{
	"acp": true, "auth-broker": true, "auth-gateway": true, "agents": true, "bench": true, "browser-relay": true,
	"cleanse": true, "commit": true, "completions": true, "__complete": true, "compress": true, "config": true,
	"dry-balance": true, "gc": true, "grep": true, "gallery": true, "git": true, "grievances": true,
	"images": true, "img": true, "if-bench": true, "install": true, "join": true, "models": true, "plugin": true,
	"plugins": true, "ps": true, "say": true, "share": true, "setup": true, "shell": true, "read": true,
	"render": true, "ssh": true, "stats": true, "update": true, "usage": true, "tiny-models": true,
	"token": true, "ttsr": true, "worktree": true, "wt": true, "search": true, "q": true, "help": true,
	"extensions": true, "list": true, "remove": true, "uninstall": true, "marketplace": true,
	"discover": true, "upgrade": true, "enable": true, "disable": true,
}

// ompValueOpts take a value (STRING_VALUE_FLAGS of 18.2.3, plus --profile
// and --alias); -r/--resume/--session take an optional one.
var ompValueOpts = map[string]bool{
	"--cwd": true, "--config": true, "--add-dir": true, "--mode": true, "--fork": true, "--provider": true,
	"--model": true, "--smol": true, "--slow": true, "--plan": true, "--prewalk-into": true,
	"--plan-yolo-into": true, "--max-time": true, "--service-tier": true, "--api-key": true,
	"--system-prompt": true, ompAppendOpt: true, "--provider-session-id": true, "--prompt-cache-key": true,
	"--session-dir": true, "--models": true, "--tools": true, "--thinking": true, "--export": true,
	"--hook": true, "--extension": true, "-e": true, "--trusted-extension": true, "--plugin-dir": true,
	"--skills": true, ompModeOpt: true, "--profile": true, "--alias": true,
	ompResumeOpt: true, "-r": true, "--session": true,
}

// Parse reads the OMP argv: -p/--print and --mode json|rpc are one-shot;
// help, version, --export, --no-session, --mode acp and the subcommands
// pass through; -r/--resume/--session, -c/--continue, --fork,
// --from-claude and --from-codex are native selectors.
func (omp) Parse(args []string, stdinTTY bool) (Intent, error) {
	args, yolo := stripYolo(args)
	mode := ""
	if i := lastFlagIndex(args, "--mode"); i >= 0 {
		mode, _ = flagValueAt(args, i)
	}
	print := hasFlag(args, "-p", "--print") || mode == "json" || mode == "rpc"
	in := Intent{Args: args, Yolo: yolo, Interactive: stdinTTY && !print}
	if mode == "acp" || ompPassthrough(args) {
		in.Mode = ModePassthrough
		return in, nil
	}
	in.Selector = hasFlag(args, ompResumeOpt, "-r", "--session", "--continue", "-c", "--fork", "--from-claude", "--from-codex")
	in.SelectedID = ompSelectedID(args)
	return in, nil
}

func ompPassthrough(args []string) bool {
	end := optionsEnd(args)
	for i := 0; i < end; i++ {
		a := args[i]
		switch {
		case isFlag(a, "--help", "-h", "--version", "-v", "--export", "--no-session"):
			return true
		case ompValueOpts[a] && (a == ompResumeOpt || a == "-r" || a == "--session"):
			if _, vi := flagValueAt(args, i); vi > i {
				i = vi
			}
		case ompValueOpts[a]:
			i++
		case strings.HasPrefix(a, "-"), strings.HasPrefix(a, "@"):
		default:
			return ompCommands[a] // the first positional decides
		}
	}
	return false
}

// ompSelectedID is the session named by -r/--resume/--session when it is
// an id (or id prefix), not a path.
func ompSelectedID(args []string) string {
	i := lastFlagIndex(args, ompResumeOpt, "-r", "--session")
	if i < 0 {
		return ""
	}
	v, _ := flagValueAt(args, i)
	if strings.ContainsAny(v, `/\`) || strings.HasSuffix(v, ".jsonl") {
		return ""
	}
	return v
}

// Build applies the OMP rules: a fresh session gets no id (OMP has no
// option for one; the launcher finds the new session after the run), the
// linked session is resumed with --resume <id>, nothing is added when the
// user chose natively; --yolo becomes --auto-approve; the packet goes in a
// run file passed with --append-system-prompt, which OMP reads on every
// start, fresh or resumed, and never writes to the session.
func (omp) Build(in Intent, d Decision) (Plan, error) {
	if in.Mode == ModePassthrough {
		return Plan{Args: in.Args}, nil
	}
	var plan Plan
	args := in.Args
	switch {
	case in.Selector:
		if in.SelectedID != "" {
			plan.SessionID, plan.Resume = in.SelectedID, true
		}
	case d.Resume != "":
		plan.SessionID, plan.Resume = d.Resume, true
		args = appendOptions(args, ompResumeOpt, d.Resume)
	}
	if d.Yolo {
		args = ompYoloArgs(&plan, args)
	}
	if d.Packet != "" && d.RunDir != "" {
		args = ompDeliver(&plan, args, d)
	}
	plan.Args = args
	return plan, nil
}

// ompYoloArgs adds --auto-approve unless the user chose an approval mode.
func ompYoloArgs(p *Plan, args []string) []string {
	i := lastFlagIndex(args, ompModeOpt)
	switch {
	case hasFlag(args, ompYolo):
		return args
	case i < 0:
		return appendOptions(args, ompYolo)
	}
	if v, _ := flagValueAt(args, i); v != "yolo" {
		p.Notices = append(p.Notices, ompYoloModeNotice)
	}
	return args
}

// ompDeliver writes the packet to a run file for --append-system-prompt.
// OMP keeps only the last value, so a user's own (text, or a file OMP
// would read) goes first in the run file, which replaces it.
func ompDeliver(p *Plan, args []string, d Decision) []string {
	path := filepath.Join(d.RunDir, ompPacket)
	content := d.Packet
	p.Confirm = ObservedWithPacket{}
	i := lastFlagIndex(args, ompAppendOpt)
	if i < 0 {
		p.Files = append(p.Files, File{Path: path, Content: content})
		return appendOptions(args, ompAppendOpt, path)
	}
	out := append([]string(nil), args...)
	v, vi := flagValueAt(out, i)
	if b, err := os.ReadFile(v); err == nil {
		v = string(b)
	}
	if strings.TrimSpace(v) != "" {
		content = v + "\n\n" + d.Packet
	}
	switch {
	case vi == i:
		out[i] = ompAppendOpt + "=" + path
	case vi > i:
		out[vi] = path
	default:
		out = insertAt(out, i+1, path)
	}
	p.Files = append(p.Files, File{Path: path, Content: content})
	p.Notices = append(p.Notices, ompMergedNotice)
	return out
}
