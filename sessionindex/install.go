package sessionindex

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// skillMD is the skill shipped inside the binary, so `install --upgrade`
// always refreshes to the text matching this version's commands.
//
//go:embed skill/SKILL.md
var skillMD []byte

// SkillMarkdown returns the embedded SKILL.md.
func SkillMarkdown() []byte { return append([]byte(nil), skillMD...) }

const agentsHeading = "## Agent session tracking"

// AgentsSection is the block Install appends to AGENTS.md.
const AgentsSection = agentsHeading + `
On the first user instruction of every new agent session:
1. Register this session: ai-memory sessions start --status active
2. Report: current session ID + full history
When user explicitly requests to end:
1. End this session: ai-memory sessions end --native-id <id>
`

// skillDir is where the skill is installed, relative to the target.
var skillDir = filepath.Join(".agents", "skills", "track-agent-sessions")

// InstallOptions select the project and the install mode.
type InstallOptions struct {
	Target  string // project root; must be an existing, non-symlink directory
	Upgrade bool   // refresh an installed SKILL.md from the binary
	DryRun  bool   // print the plan, write nothing
}

// step is one planned change (or a note that nothing changes).
type step struct {
	path string
	note string      // what the plan line says
	dir  bool        // create a directory
	data []byte      // file content to write; nil with !dir means no change
	mode os.FileMode // for files
}

func (s step) changes() bool { return s.dir || s.data != nil }

// Install adds the session-tracking section to AGENTS.md (idempotently,
// leaving the rest of the file byte for byte) and writes the skill to
// .agents/skills/track-agent-sessions/SKILL.md. It refuses symlinks for
// AGENTS.md, .agents, and the skill directories, and reports its plan on w.
func Install(o InstallOptions, w io.Writer) error {
	target, err := checkTarget(o.Target)
	if err != nil {
		return err
	}
	steps, err := planInstall(target, o.Upgrade)
	if err != nil {
		return err
	}
	return runPlan(steps, o, w)
}

func checkTarget(t string) (string, error) {
	if t == "" {
		return "", errors.New("install: no target directory; pass --target DIR")
	}
	abs, err := filepath.Abs(t)
	if err != nil {
		return "", fmt.Errorf("install: %w", err)
	}
	fi, err := os.Lstat(abs)
	switch {
	case err != nil:
		return "", fmt.Errorf("install: target %s: %w", abs, err)
	case fi.Mode()&os.ModeSymlink != 0:
		return "", fmt.Errorf("install: target %s is a symlink; pass the real directory", abs)
	case !fi.IsDir():
		return "", fmt.Errorf("install: target %s is not a directory", abs)
	}
	return abs, nil
}

func planInstall(target string, upgrade bool) ([]step, error) {
	// AGENTS.md goes last: a failed skill write must not leave a pointer
	// to commands whose skill is missing. Everything is checked first.
	agents, err := planAgentsMD(filepath.Join(target, "AGENTS.md"))
	if err != nil {
		return nil, err
	}
	var steps []step
	dir := target
	for _, part := range strings.Split(skillDir, string(filepath.Separator)) {
		dir = filepath.Join(dir, part)
		st, err := planDir(dir)
		if err != nil {
			return nil, err
		}
		if st.changes() {
			steps = append(steps, st)
		}
	}
	skill, err := planSkill(filepath.Join(dir, "SKILL.md"), upgrade)
	if err != nil {
		return nil, err
	}
	return append(steps, skill, agents), nil
}

// lstatRegular returns the file's info, nil when absent, and refuses
// symlinks and anything that is not a regular file.
func lstatRegular(path string) (os.FileInfo, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("install: %w", err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("install: %s is a symlink; refusing to edit through it", path)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("install: %s is not a regular file", path)
	}
	return fi, nil
}
