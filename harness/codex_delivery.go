package harness

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Codex config keys involved in delivery.
const (
	codexDevInstructions    = "developer_instructions"
	codexInstructionsFile   = "model_instructions_file"
	codexInstructionsName   = "codex-instructions.md"
	codexMergedDevNotice    = "your -c developer_instructions was kept and ai-memory's handoff packet was appended to it for this run"
	codexNoBaseNotice       = "ai-memory could not read the resumed Codex session's base instructions, and replacing them with the packet alone would drop Codex's own prompt"
	codexOwnInstructionsFmt = "you passed -c %s, which ai-memory would have to replace to reach a resumed Codex session"
)

// codexBaseKeys replace Codex's base instructions; when the user sets one,
// a resumed session cannot also receive the packet without overriding it.
var codexBaseKeys = []string{codexInstructionsFile, "instructions", "experimental_instructions_file"}

// deliver hands the packet to Codex: developer_instructions on a fresh
// session; on a session with history (resume, fork), where Codex ignores
// developer_instructions, a model_instructions_file holding that session's
// own base instructions followed by the packet. Root-level -c flags reach
// every subcommand, so ours go first and the user's own, later ones keep
// precedence.
func (codex) deliver(p *Plan, args []string, history bool, base string, r Decision) []string {
	if history {
		return deliverResumed(p, args, base, r)
	}
	if i := lastConfigIndex(args, codexDevInstructions); i >= 0 {
		out := append([]string(nil), args...)
		ov := parseOverride(args, i)
		merged := tomlUnquote(ov.value) + "\n\n" + r.Packet
		out[ov.valueIdx] = ov.prefix + codexDevInstructions + "=" + tomlQuote(merged)
		p.Notices = append(p.Notices, codexMergedDevNotice)
		p.Confirm = ObservedWithPacket{}
		return out
	}
	p.Confirm = ObservedWithPacket{}
	return insertAt(args, 0, "-c", codexDevInstructions+"="+tomlQuote(r.Packet))
}

// deliverResumed writes base instructions + packet to a run file and points
// model_instructions_file at it, or skips with a notice when that would lose
// the user's or Codex's own instructions.
func deliverResumed(p *Plan, args []string, base string, r Decision) []string {
	for _, key := range codexBaseKeys {
		if lastConfigIndex(args, key) >= 0 {
			p.Notices = append(p.Notices, skipNotice(fmt.Sprintf(codexOwnInstructionsFmt, key)))
			return args
		}
	}
	if strings.TrimSpace(base) == "" || r.RunDir == "" {
		p.Notices = append(p.Notices, skipNotice(codexNoBaseNotice))
		return args
	}
	path := filepath.Join(r.RunDir, codexInstructionsName)
	p.Files = append(p.Files, File{Path: path, Content: base + "\n\n" + r.Packet})
	p.Confirm = ObservedWithPacket{}
	return insertAt(args, 0, "-c", codexInstructionsFile+"="+tomlQuote(path))
}

// configOverride is one -c/--config key=value in argv.
type configOverride struct {
	key, value string
	prefix     string // what precedes key in args[valueIdx]: "", "--config=" or "-c"
	valueIdx   int
}

// parseOverride reads the -c option at args[i] in any clap spelling:
// "-c k=v", "--config k=v", "--config=k=v", "-ck=v".
func parseOverride(args []string, i int) configOverride {
	a := args[i]
	var ov configOverride
	switch {
	case a == "-c" || a == "--config":
		if i+1 >= len(args) {
			return configOverride{valueIdx: -1}
		}
		ov.valueIdx, ov.prefix = i+1, ""
		a = args[i+1]
	case strings.HasPrefix(a, "--config="):
		ov.valueIdx, ov.prefix = i, "--config="
		a = strings.TrimPrefix(a, "--config=")
	case strings.HasPrefix(a, "-c"):
		ov.valueIdx, ov.prefix = i, "-c"
		a = strings.TrimPrefix(a, "-c")
	default:
		return configOverride{valueIdx: -1}
	}
	k, v, _ := strings.Cut(a, "=")
	ov.key, ov.value = strings.TrimSpace(k), strings.TrimSpace(v)
	return ov
}

// lastConfigIndex returns the index of the last -c option before "--" that
// sets key, or -1. Codex applies overrides in order, so the last one wins.
func lastConfigIndex(args []string, key string) int {
	idx := -1
	end := optionsEnd(args)
	for i := 0; i < end; i++ {
		a := args[i]
		if a != "-c" && a != "--config" && !strings.HasPrefix(a, "--config=") &&
			!(strings.HasPrefix(a, "-c") && !strings.HasPrefix(a, "--")) {
			continue
		}
		if ov := parseOverride(args, i); ov.valueIdx >= 0 && ov.key == key {
			idx = i
		}
		if a == "-c" || a == "--config" {
			i++
		}
	}
	return idx
}
