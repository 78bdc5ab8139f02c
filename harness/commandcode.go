package harness

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/ai-memory/ai-memory/transcript"
)

// commandcodeDescriptor is Command Code (npm `command-code`, whose bins are
// cmd, cmdc, command-code and commandcode; the unambiguous command-code is
// looked up). Facts from `cmd --help` of 1.64.0 and runs against the mock.
func commandcodeDescriptor() Descriptor {
	return Descriptor{
		Name:       "command-code",
		Aliases:    []string{"commandcode"},
		Product:    "Command Code",
		Executable: "command-code",
		Install:    "npm install -g command-code",
		Tested:     []string{"1.64.0"},
		Planner:    commandcode{},
		Source:     transcript.CommandCodeSource(),
	}
}

// commandcode plans launches of Command Code.
type commandcode struct{}

var _ Planner = commandcode{}

const (
	commandcodeSessionOpt = "--session"
	commandcodeYolo       = "--dangerously-skip-permissions"
	commandcodeModOpt     = "--mod"
	commandcodePacketName = "command-code-handoff.ts"
)

// commandcodeUtilities are Command Code's subcommands (cmd --help, 1.64.0).
var commandcodeUtilities = map[string]bool{
	"info": true, "status": true, "help": true, "whoami": true, "update": true, "feedback": true,
	"issue": true, "taste": true, "learn-taste": true, "mcp": true, "skills": true, "mods": true,
	"login": true, "logout": true,
}

// commandcodeValueOpts take a value (-r/--resume, -p/--print and
// -w/--worktree an optional one: the next word unless it is an option).
var commandcodeValueOpts = map[string]bool{
	"-r": true, "--resume": true, commandcodeSessionOpt: true, "-n": true, "--name": true,
	"-p": true, "--print": true, "--max-turns": true, "--output-format": true, "--tools-enable": true,
	"-m": true, "--model": true, "--effort": true, "--theme": true, "--config": true,
	"--permission-mode": true, "--add-dir": true, "-w": true, "--worktree": true, commandcodeModOpt: true,
	"--mod-option": true, "--skill": true,
}

// Parse reads the Command Code argv: -p/--print is noninteractive; help,
// version, --list-models, --no-session and the subcommands pass through;
// --session, -r/--resume and -c/--continue are native selectors.
func (commandcode) Parse(args []string, stdinTTY bool) (Intent, error) {
	args, yolo := stripYolo(args)
	in := Intent{Args: args, Yolo: yolo, Interactive: stdinTTY && !hasFlag(args, "-p", "--print")}
	if commandcodePassthrough(args) {
		in.Mode = ModePassthrough
		return in, nil
	}
	in.Selector = hasFlag(args, commandcodeSessionOpt, "-r", "--resume", "-c", "--continue")
	in.SelectedID = commandcodeSelectedID(args)
	return in, nil
}

func commandcodePassthrough(args []string) bool {
	end := optionsEnd(args)
	for i := 0; i < end; i++ {
		a := args[i]
		switch {
		case isFlag(a, "--help", "-h", "--version", "-v", "--list-models", "--no-session"):
			return true
		case commandcodeValueOpts[a]:
			if _, vi := flagValueAt(args, i); vi > i {
				i = vi
			}
		case strings.HasPrefix(a, "-"):
		default:
			return commandcodeUtilities[a] // the first positional decides
		}
	}
	return false
}

// commandcodeSelectedID is the session named by a full id after --session
// or -r/--resume (a path, prefix or name names no exact id); --fork-session
// makes a new session whose id is unknown.
func commandcodeSelectedID(args []string) string {
	i := lastFlagIndex(args, commandcodeSessionOpt, "-r", "--resume")
	if i < 0 || hasFlag(args, "--fork-session") {
		return ""
	}
	if v, _ := flagValueAt(args, i); isUUID(v) {
		return v
	}
	return ""
}

// Build applies the Command Code rules: a fresh session gets nothing
// (Command Code makes the id, found after the run), the linked session is
// resumed with --session <id>, nothing is added when the user chose
// natively; --yolo becomes --dangerously-skip-permissions (Command Code's
// own --yolo is its alias, but the wrapper owns that token); the packet
// goes in a per-run mod (--mod <run>/command-code-handoff.ts) whose
// appendSystemPrompt hook returns it, fresh or resumed; Command Code does
// not write it to the transcript.
func (commandcode) Build(in Intent, d Decision) (Plan, error) {
	if in.Mode == ModePassthrough {
		return Plan{Args: in.Args}, nil
	}
	var plan Plan
	args := in.Args
	switch {
	case in.Selector:
		plan.SessionID = in.SelectedID
		plan.Resume = in.SelectedID != ""
	case d.Resume != "":
		plan.SessionID, plan.Resume = d.Resume, true
		args = appendOptions(args, commandcodeSessionOpt, d.Resume)
	}
	if d.Yolo && !hasFlag(args, commandcodeYolo, "--permission-mode") {
		args = appendOptions(args, commandcodeYolo)
	}
	if d.Packet != "" && d.RunDir != "" {
		path := filepath.Join(d.RunDir, commandcodePacketName)
		plan.Files = append(plan.Files, File{Path: path, Content: commandcodeMod(d.Packet)})
		args = appendOptions(args, commandcodeModOpt, path)
		plan.Confirm = ObservedWithPacket{}
	}
	plan.Args = args
	return plan, nil
}

// commandcodeMod is a mod whose appendSystemPrompt hook returns packet (a
// JSON string literal is a valid TypeScript one).
func commandcodeMod(packet string) string {
	lit, _ := json.Marshal(packet) // a string always encodes
	return "// ai-memory handoff for this run only (written to the run directory, removed after the run).\n" +
		"export default function (cmd: any) {\n  cmd.hooks({ appendSystemPrompt: () => " + string(lit) + " });\n}\n"
}
