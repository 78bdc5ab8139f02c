package harness

import (
	"strings"

	"github.com/ai-memory/ai-memory/transcript"
)

// qwenDescriptor is Qwen Code (`@qwen-code/qwen-code`, a Gemini CLI fork).
// Facts checked against 0.24.4 run offline and its bundled yargs options
// (chunks/chunk-BSIOCNDK.js, parseArguments): docs/harnesses.md "Qwen Code".
func qwenDescriptor() Descriptor {
	return Descriptor{
		Name:       "qwen",
		Aliases:    []string{"qwen-code"},
		Product:    "Qwen Code",
		Executable: "qwen",
		Install:    "npm install -g @qwen-code/qwen-code",
		Tested:     []string{"0.24.4"},
		// Qwen sets it in its own environment, which its shell tool inherits.
		SessionEnv: []string{"QWEN_CODE_SESSION_ID"},
		Planner:    qwen{},
		Source:     transcript.QwenSource(),
		// --mcp-config, merged over the settings for this run (qwen_mcp.go).
		MCPToolName: qwenMCPToolName,
	}
}

// qwen plans launches of Qwen Code.
type qwen struct{}

var _ Planner = qwen{}

const (
	qwenSessionIDOpt = "--session-id"
	qwenResumeOpt    = "--resume"
	qwenAppendOpt    = "--append-system-prompt"
	// qwenYolo is the form Qwen's own "--yolo with --approval-mode" error
	// recommends. The wrapper's --yolo is also Qwen's, so the wrapper strips
	// it like everywhere and adds this.
	qwenYolo           = "--approval-mode=yolo"
	qwenYoloModeNotice = "--yolo was not applied: you chose --approval-mode yourself, and Qwen Code rejects both together"
	qwenMergedNotice   = "your --append-system-prompt was kept and ai-memory's handoff packet was appended to it for this run"
)

// qwenUtilities are Qwen's subcommands (yargs commands beside the default
// one); they run and exit without a session.
var qwenUtilities = map[string]bool{
	"mcp": true, "extensions": true, "auth": true, "hooks": true, "channel": true, "board": true,
	"review": true, "serve": true, "sessions": true, "update": true, "sandbox": true,
}

// qwenValueOpts are Qwen's options that take one value (string and number
// options of 0.24.4); qwenArrayOpts take every value up to the next option,
// as yargs array options do. -r/--resume and --worktree take an optional
// value (bare = picker, generated slug).
var (
	qwenValueOpts = map[string]bool{
		"--model": true, "-m": true, "--prompt": true, "-p": true, "--prompt-interactive": true, "-i": true,
		"--system-prompt": true, qwenAppendOpt: true, "--output-style": true, "--sandbox-image": true,
		"--approval-mode": true, "--channel": true, "--mcp-config": true, "--openai-logging-dir": true,
		"--openai-api-key": true, "--openai-base-url": true, "--input-format": true, "--output-format": true,
		"-o": true, "--json-fd": true, "--json-file": true, "--json-schema": true, "--input-file": true,
		qwenResumeOpt: true, "-r": true, qwenSessionIDOpt: true, "--worktree": true,
		"--max-session-turns": true, "--max-wall-time": true, "--max-tool-calls": true,
		"--max-subagent-depth": true, "--auth-type": true, "--telemetry-target": true,
		"--telemetry-otlp-endpoint": true, "--telemetry-otlp-protocol": true, "--telemetry-outfile": true,
		"--proxy": true,
	}
	qwenArrayOpts = map[string]bool{
		"--fallback-model": true, "--allowed-mcp-server-names": true, "--allowed-tools": true,
		"--extensions": true, "-e": true, "--include-directories": true, "--add-dir": true,
		"--core-tools": true, "--exclude-tools": true, "--disabled-slash-commands": true,
	}
)

// Parse reads the Qwen argv. A prompt (-p, or positional words without
// -i) is a one-shot run; help, version, --list-extensions, the ACP server,
// --chat-recording false (no transcript) and the utility subcommands pass
// through; --session-id, -r/--resume, -c/--continue and --fork-session are
// native selectors.
func (qwen) Parse(args []string, stdinTTY bool) (Intent, error) {
	args, yolo := stripYolo(args)
	in := Intent{Args: args, Yolo: yolo}
	words := qwenWords(args)
	utility := len(words) > 0 && qwenUtilities[words[0]]
	prompt := hasFlag(args, "-p", "--prompt") || (len(words) > 0 && !utility)
	in.Interactive = stdinTTY && (hasFlag(args, "-i", "--prompt-interactive") || !prompt)
	if utility || qwenPassthrough(args) {
		in.Mode = ModePassthrough
		return in, nil
	}
	in.Selector = hasFlag(args, qwenSessionIDOpt, qwenResumeOpt, "-r", "--continue", "-c", "--fork-session")
	in.SelectedID = qwenSelectedID(args)
	return in, nil
}

// qwenPassthrough reports the options that make a run without a session
// transcript.
func qwenPassthrough(args []string) bool {
	if hasFlag(args, "--help", "-h", "--version", "-v", "--list-extensions", "-l", "--acp", "--experimental-acp",
		"--no-chat-recording") {
		return true
	}
	if i := lastFlagIndex(args, "--chat-recording"); i >= 0 {
		if v, _ := flagValueAt(args, i); v == "false" {
			return true
		}
	}
	return false
}

// qwenWords returns the positional words before "--" (the query, or a
// subcommand first), skipping option values the way yargs assigns them.
func qwenWords(args []string) []string {
	var words []string
	end := optionsEnd(args)
	for i := 0; i < end; i++ {
		a := args[i]
		switch {
		case !strings.HasPrefix(a, "-") || a == "-":
			words = append(words, a)
		case strings.Contains(a, "="):
		case qwenArrayOpts[a]:
			for i+1 < end && !strings.HasPrefix(args[i+1], "-") {
				i++
			}
		case qwenValueOpts[a]:
			if _, vi := flagValueAt(args, i); vi > i {
				i = vi
			}
		case i+1 < end && (args[i+1] == "true" || args[i+1] == "false"):
			i++ // a boolean option given an explicit value
		}
	}
	return append(words, args[min(end+1, len(args)):]...)
}

// qwenSelectedID is the session id named by --session-id (a new session
// with that id) or -r/--resume <id>.
func qwenSelectedID(args []string) string {
	i := lastFlagIndex(args, qwenSessionIDOpt, qwenResumeOpt, "-r")
	if i < 0 {
		return ""
	}
	v, _ := flagValueAt(args, i)
	return v
}

// Build applies the Qwen rules: a fresh session gets --session-id <uuid>
// (Qwen accepts UUIDs only, create-only), the linked session is resumed
// with --resume <id>, nothing is added when the user chose natively;
// --yolo becomes --approval-mode=yolo (without it print mode offers no
// shell or edit tools); the packet goes in --append-system-prompt, which
// Qwen adds to the system prompt on every start, fresh or resumed, and
// never writes to the transcript.
func (q qwen) Build(in Intent, d Decision) (Plan, error) {
	if in.Mode == ModePassthrough {
		return Plan{Args: in.Args}, nil
	}
	var plan Plan
	args := in.Args
	switch {
	case in.Selector:
		if in.SelectedID != "" {
			plan.SessionID = in.SelectedID
			plan.Resume = !hasFlag(args, qwenSessionIDOpt)
		}
	case d.Resume != "":
		plan.SessionID, plan.Resume = d.Resume, true
		args = appendOptions(args, qwenResumeOpt, d.Resume)
	case d.NewSessionID != "":
		plan.SessionID = d.NewSessionID
		args = appendOptions(args, qwenSessionIDOpt, d.NewSessionID)
	}
	if d.Yolo {
		args = qwenYoloArgs(&plan, args)
	}
	if d.Packet != "" {
		args = qwenDeliver(&plan, args, d.Packet)
	}
	if d.MCP != nil {
		var err error
		if args, err = q.registerMCP(&plan, args, *d.MCP); err != nil {
			return Plan{}, err
		}
	}
	plan.Args = args
	return plan, nil
}

// qwenYoloArgs adds --approval-mode=yolo unless the user already chose an
// approval mode (Qwen rejects -y together with --approval-mode).
func qwenYoloArgs(p *Plan, args []string) []string {
	i := lastFlagIndex(args, "--approval-mode")
	switch {
	case hasFlag(args, "-y"):
		return args
	case i < 0:
		return appendOptions(args, qwenYolo)
	}
	if v, _ := flagValueAt(args, i); v != "yolo" {
		p.Notices = append(p.Notices, qwenYoloModeNotice)
	}
	return args
}

// qwenDeliver passes the packet as --append-system-prompt text (Qwen takes
// no file). Qwen 0.24.4 fails to start when the option is given twice, so
// a user's own value is kept and the packet appended to it.
func qwenDeliver(p *Plan, args []string, packet string) []string {
	p.Confirm = ObservedWithPacket{}
	i := lastFlagIndex(args, qwenAppendOpt)
	if i < 0 {
		return appendOptions(args, qwenAppendOpt, packet)
	}
	out := append([]string(nil), args...)
	v, vi := flagValueAt(out, i)
	switch {
	case vi == i:
		out[i] = qwenAppendOpt + "=" + v + "\n\n" + packet
	case vi > i:
		out[vi] = v + "\n\n" + packet
	default:
		out = insertAt(out, i+1, packet)
	}
	p.Notices = append(p.Notices, qwenMergedNotice)
	return out
}
