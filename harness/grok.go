package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/transcript"
)

// grokDescriptor is Grok Build, xAI's `grok` (installed by x.ai's script,
// not npm, so it cannot install here: its facts were read in
// xai-org/grok-build at 1.0.6 and a fake follows them).
func grokDescriptor() Descriptor {
	return Descriptor{
		Name:       "grok",
		Aliases:    []string{"grok-build"},
		Product:    "Grok Build",
		Executable: "grok",
		Install:    "curl -fsSL https://x.ai/cli/install.sh | bash",
		Tested:     []string{"1.0.6"},
		Planner:    grok{},
		Source:     transcript.GrokSource(),
	}
}

// grok plans launches of Grok Build, a clap CLI.
//
// Rules, from xai-grok-pager/src/app/cli.rs and the user guide
// (14-headless-mode.md, 17-sessions.md, 12-project-rules.md) of 1.0.6:
//   - fresh: `--session-id <uuid v4>` appended: it creates a session with
//     that id (and errors if the id exists), so the session is linked
//     before spawn.
//   - resume: `--resume <id>` appended (-r takes an optional value: bare
//     -r is the newest session of the cwd).
//   - native selectors: -s/--session-id <uuid> (an explicit *fresh*
//     session), -r/--resume [id|title], --load <id>, -c/--continue,
//     --fork-session (a new session from -r/-c).
//   - yolo: --always-approve (--yolo is its alias, the wrapper's own token).
//   - print mode: -p/--single/--print <prompt>, --prompt-json,
//     --prompt-file.
//   - handoff: `--rules <packet>` (alias --append-system-prompt), added to
//     the session's system prompt, fresh and resumed; a user who passed
//     --rules keeps theirs and gets no packet this time.
//   - a different CLI, superagent-ai's grok-cli, also installs as `grok`;
//     its store is ~/.grok/grok.db, so when that file exists the version
//     line decides (Grok Build prints "grok <version> ...", grok-cli a bare
//     number) and grok-cli is refused with one line.
type grok struct {
	// version runs `<exe> --version` (nil = exec with a timeout).
	version func(exe string) (string, error)
}

var _ Planner = grok{}

var grokUtilities = map[string]bool{
	"agent": true, "inspect": true, "doctor": true, "leader": true, "logout": true, "login": true,
	"mcp": true, "plugin": true, "memory": true, "models": true, "sessions": true, "setup": true,
	"share": true, "wrap": true, "export": true, "trace": true, "update": true, "version": true,
	"completions": true, "worktree": true, "disk-usage": true, "workspace": true, "dashboard": true,
	"help": true,
}

var grokValueOpts = map[string]bool{
	"--cwd": true, "--leader-socket": true, "--debug-file": true, "--allow": true, "--allowedTools": true,
	"--deny": true, "--disallowedTools": true, "-p": true, "--single": true, "--print": true,
	"--prompt-json": true, "--prompt-file": true, "--output-format": true, "--json-schema": true,
	"-m": true, "--model": true, "--reasoning-effort": true, "--effort": true, "--rules": true,
	"--append-system-prompt": true, "--system-prompt-override": true, "--system-prompt": true,
	"--load": true, "-s": true, "--session-id": true, "--worktree-ref": true, "--ref": true,
	"--agent": true, "--agents": true, "--tools": true, "--disallowed-tools": true, "--max-turns": true,
	"--permission-mode": true, "--sandbox": true, "--compaction-mode": true, "--compaction-detail": true,
}

const (
	grokSessionOpt = "--session-id"
	grokResumeOpt  = "--resume"
	grokYolo       = "--always-approve"
	grokRules      = "--rules"
	// grokMaxArg is Linux's limit on one argv string (MAX_ARG_STRLEN, NUL
	// included): a longer packet cannot be passed with --rules.
	grokMaxArg = 128<<10 - 1
)

// Parse reads the Grok argv.
func (grok) Parse(args []string, stdinTTY bool) (Intent, error) {
	args, yolo := stripYolo(args)
	print := hasFlag(args, "-p", "--single", "--print", "--prompt-json", "--prompt-file")
	in := Intent{Args: args, Yolo: yolo, Interactive: stdinTTY && !print}
	if hasFlag(args, "-h", "--help", "-v", "-V", "--version") || grokUtilities[grokSubcommand(args)] {
		in.Mode = ModePassthrough
		return in, nil
	}
	in.Selector, in.SelectedID = grokSelector(args)
	return in, nil
}

// Build applies the rules above for the launcher's decision.
func (g grok) Build(in Intent, d Decision) (Plan, error) {
	if in.Mode == ModePassthrough {
		return Plan{Args: in.Args}, nil
	}
	if err := g.checkProduct(d); err != nil {
		return Plan{}, err
	}
	args := in.Args
	var p Plan
	switch {
	case in.Selector:
		if in.SelectedID != "" && !hasFlag(args, "--fork-session") {
			p.SessionID = in.SelectedID
			p.Resume = !hasFlag(args, "-s", grokSessionOpt)
		}
	case d.Resume != "":
		p.SessionID, p.Resume = d.Resume, true
		args = appendOptions(args, grokResumeOpt, d.Resume)
	case d.NewSessionID != "":
		p.SessionID = d.NewSessionID
		args = appendOptions(args, grokSessionOpt, d.NewSessionID)
	}
	if d.Yolo && !hasFlag(args, grokYolo, "--yolo", "--dangerously-skip-permissions") {
		args = appendOptions(args, grokYolo)
	}
	if d.Packet != "" {
		args = grokDeliver(&p, args, d.Packet)
	}
	p.Args = args
	return p, nil
}

// grokDeliver appends --rules <packet> unless the user set rules or the
// packet is too long for one argument.
func grokDeliver(p *Plan, args []string, packet string) []string {
	switch {
	case hasFlag(args, grokRules, "--append-system-prompt"):
		p.Notices = append(p.Notices, skipNotice("--rules was given; it would be replaced"))
		return args
	case len(packet) > grokMaxArg:
		p.Notices = append(p.Notices, skipNotice("the packet is too long for one --rules argument"))
		return args
	}
	p.Confirm = ObservedWithPacket{}
	return appendOptions(args, grokRules, packet)
}

// grokSubcommand returns the first positional before "--" ("" for none).
func grokSubcommand(args []string) string {
	end := optionsEnd(args)
	for i := 0; i < end; i++ {
		a := args[i]
		switch {
		case grokValueOpts[a]:
			i++
		case a == "-r" || a == grokResumeOpt || a == "-w" || a == "--worktree":
			if i+1 < end && !strings.HasPrefix(args[i+1], "-") && !grokUtilities[args[i+1]] {
				i++
			}
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// grokSelector reads -s/--session-id, -r/--resume, --load and -c. Only a
// UUID-shaped value is an id (others are titles, resolved by Grok).
func grokSelector(args []string) (bool, string) {
	for _, names := range [][]string{{"-s", grokSessionOpt}, {"-r", grokResumeOpt, "--load"}} {
		if i := lastFlagIndex(args, names...); i >= 0 {
			id, _ := flagValueAt(args, i)
			if !isUUID(id) {
				id = ""
			}
			return true, strings.ToLower(id)
		}
	}
	return hasFlag(args, "-c", "--continue"), ""
}

// checkProduct refuses superagent-ai's grok-cli: when its store
// (<GROK_HOME or ~/.grok>/grok.db) exists, `grok --version` must print
// Grok Build's "grok <version>" line.
func (g grok) checkProduct(d Decision) error {
	get := func(k string) string {
		if d.Getenv == nil {
			return ""
		}
		return strings.TrimSpace(d.Getenv(k))
	}
	home := get("GROK_HOME")
	if home == "" {
		home = filepath.Join(get("HOME"), ".grok")
	}
	if _, err := os.Stat(filepath.Join(home, "grok.db")); err != nil || d.Executable == "" {
		return nil
	}
	run := g.version
	if run == nil {
		run = grokVersion
	}
	out, err := run(d.Executable)
	if err == nil && strings.HasPrefix(strings.TrimSpace(out), "grok ") {
		return nil
	}
	return fmt.Errorf("%s is not xAI's Grok Build (%s holds grok-cli's grok.db and `grok --version` printed %q); install Grok Build or pass --executable", d.Executable, home, strings.TrimSpace(out))
}

// grokVersion runs `exe --version` with a timeout.
func grokVersion(exe string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, exe, "--version").Output()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "", ctx.Err()
	}
	return string(out), err
}
