package harness

import (
	"strings"

	"github.com/ai-memory/ai-memory/transcript"
)

// codexDescriptor is the OpenAI Codex CLI.
func codexDescriptor() Descriptor {
	return Descriptor{
		Name:        "codex",
		Product:     "Codex",
		Executable:  "codex",
		Install:     "npm install -g @openai/codex",
		Tested:      []string{"0.169.0", "0.171.0"},
		SessionEnv:  []string{"CODEX_THREAD_ID"},
		Planner:     codex{},
		Source:      transcript.CodexSource(),
		MCPToolName: codexMCPToolName,
		Check:       codexCheck,
	}
}

// codex plans launches of the OpenAI Codex CLI. baseInstructions reads a
// rollout's own base instructions (nil means
// transcript.CodexBaseInstructions); tests replace it.
type codex struct {
	baseInstructions func(path string) (string, error)
}

var _ Planner = codex{}

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

// Parse reads the Codex argv: `exec` is noninteractive; help, version,
// --ephemeral and utility subcommands pass through; `resume`, `fork` and
// `exec resume` are native selectors.
func (codex) Parse(args []string, stdinTTY bool) (Intent, error) {
	args, yolo := stripYolo(args)
	sub, subIdx := firstPositional(args, 0)
	in := Intent{Args: args, Yolo: yolo, Interactive: stdinTTY && !isExec(sub)}
	if codexPassthrough(args, sub, subIdx) {
		in.Mode = ModePassthrough
		return in, nil
	}
	sel := codexSelector(args, sub, subIdx)
	in.Selector, in.SelectedID = sel.explicit, sel.id
	return in, nil
}

// Build applies the Codex rules: a fresh session needs nothing (Codex makes
// the id), the linked one is resumed with `resume <id>` (or `exec resume
// <id>`), nothing is added when the user chose natively; yolo maps to
// --dangerously-bypass-approvals-and-sandbox; the packet goes in
// developer_instructions (fresh) or a model_instructions_file holding the
// session's own base instructions plus the packet (resumed), because Codex
// ignores developer_instructions on resume; the MCP server goes in -c
// mcp_servers.<name>.* overrides (see codex_mcp.go).
func (c codex) Build(in Intent, d Decision) (Plan, error) {
	if in.Mode == ModePassthrough {
		return Plan{Args: in.Args}, nil
	}
	args := in.Args
	sub, subIdx := firstPositional(args, 0)
	sel := codexSelector(args, sub, subIdx)
	var p Plan
	args = c.selectSession(&p, args, sel, sub, subIdx, d)
	if d.Yolo && !hasFlag(args, codexYolo) {
		args = appendOptions(args, codexYolo)
	}
	if d.Packet != "" {
		target := d.Resume
		if sel.explicit {
			target = sel.id
		}
		args = c.deliver(&p, args, sel.history || p.Resume, c.base(d, target), d)
	}
	if d.MCP != nil {
		args = c.registerMCP(args, *d.MCP)
	}
	p.Args = args
	return p, nil
}

// base returns the base instructions of the session the packet goes to,
// "" when there is none or they cannot be read (delivery is then skipped
// with a notice, see deliverResumed).
func (c codex) base(d Decision, target string) string {
	if target == "" || d.Session == nil {
		return ""
	}
	s, ok := d.Session(target)
	if !ok || s.Path == "" {
		return ""
	}
	read := c.baseInstructions
	if read == nil {
		read = transcript.CodexBaseInstructions
	}
	text, err := read(s.Path)
	if err != nil {
		return ""
	}
	return text
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
