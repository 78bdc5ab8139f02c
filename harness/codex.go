package harness

import "strings"

// codex plans launches of the OpenAI Codex CLI.
type codex struct{}

var _ Harness = codex{}

// codexUtilities are subcommands (and clap aliases) that run a utility, not
// a session.
var codexUtilities = map[string]bool{
	"review": true, "login": true, "logout": true, "mcp": true, "plugin": true,
	"mcp-server": true, "app-server": true, "remote-control": true, "completion": true,
	"update": true, "doctor": true, "sandbox": true, "debug": true, "apply": true, "a": true,
	"archive": true, "delete": true, "unarchive": true, "cloud": true, "cloud-tasks": true,
	"exec-server": true, "features": true, "help": true, "execpolicy": true,
	"responses-api-proxy": true, "stdio-to-uds": true,
}

// codexValueOpts are root, exec and resume options that take a separate
// value, from Codex's clap definitions; they let us find the subcommand and
// the first positional behind options.
var codexValueOpts = map[string]bool{
	"-c": true, "--config": true, "--enable": true, "--disable": true,
	"-m": true, "--model": true, "-p": true, "--profile": true,
	"-s": true, "--sandbox": true, "-a": true, "--ask-for-approval": true,
	"-C": true, "--cd": true, "-i": true, "--image": true, "--add-dir": true,
	"--local-provider": true, "--output-schema": true, "--color": true,
	"-o": true, "--output-last-message": true, "--remote": true, "--remote-auth-token-env": true,
}

const (
	codexYolo = "--dangerously-bypass-approvals-and-sandbox"
	codexExec = "exec"
)

func (codex) Name() string       { return "codex" }
func (codex) Aliases() []string  { return nil }
func (codex) Executable() string { return "codex" }

// Plan applies the Codex rules: a fresh session needs nothing (Codex makes
// the id), the linked one is resumed with `resume <id>` (or `exec resume
// <id>`), nothing is added when the user chose natively; yolo maps to
// --dangerously-bypass-approvals-and-sandbox; the packet goes in
// developer_instructions (fresh) or a model_instructions_file holding the
// session's own base instructions plus the packet (resumed), because Codex
// ignores developer_instructions on resume.
func (c codex) Plan(r Request) (Plan, error) {
	args, yolo := stripYolo(r.Args)
	sub, subIdx := firstPositional(args, 0)
	p := Plan{Interactive: r.StdinTTY && !isExec(sub)}
	if codexPassthrough(args, sub, subIdx) {
		p.Args, p.Mode = args, ModePassthrough
		return p, nil
	}
	sel := codexSelector(args, sub, subIdx)
	if sel.explicit && r.Fresh {
		return Plan{}, ErrFreshWithSelector
	}
	args = c.selectSession(&p, args, sel, sub, subIdx, r)
	if (yolo || r.Yolo) && !hasFlag(args, codexYolo) {
		args = appendOptions(args, codexYolo)
	}
	if r.Packet != "" {
		args = c.deliver(&p, args, sel.history || p.Resume, r)
	}
	p.Args = args
	return p, nil
}

func isExec(sub string) bool { return sub == codexExec || sub == "e" }

// firstPositional returns the first argument at or after from that is not an
// option or an option's value, and its index (-1 if none).
func firstPositional(args []string, from int) (string, int) {
	end := optionsEnd(args)
	for i := from; i < end; i++ {
		a := args[i]
		switch {
		case codexValueOpts[a]:
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			return a, i
		}
	}
	if end+1 < len(args) {
		return args[end+1], end + 1
	}
	return "", -1
}

// codexPassthrough reports help/version, --ephemeral (nothing is stored to
// import), a utility subcommand, or `exec review` / `exec help`.
func codexPassthrough(args []string, sub string, subIdx int) bool {
	for _, a := range args[:optionsEnd(args)] {
		switch a {
		case "--help", "-h", "--version", "-V", "-v", "--ephemeral", "--no-session-persistence":
			return true
		}
	}
	if subIdx >= 0 && subIdx < optionsEnd(args) && codexUtilities[sub] {
		return true
	}
	if isExec(sub) {
		next, _ := firstPositional(args, subIdx+1)
		return next == "review" || next == "help"
	}
	return false
}
