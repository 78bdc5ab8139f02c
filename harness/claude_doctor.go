package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"

	"github.com/ai-memory/ai-memory/transcript"
)

// claudeSettingsFile is one settings file Claude Code reads, with its
// layer. Claude merges its layers user < project < local < --settings <
// managed; a scalar is taken from the highest layer that sets it.
type claudeSettingsFile struct {
	path    string
	managed bool
}

// claudeManagedFiles are the managed (policy) settings files of this OS;
// tests replace it.
var claudeManagedFiles = func() []string {
	switch runtime.GOOS {
	case "darwin":
		return []string{"/Library/Application Support/ClaudeCode/managed-settings.json"}
	case "windows":
		return []string{`C:\Program Files\ClaudeCode\managed-settings.json`}
	}
	return []string{"/etc/claude-code/managed-settings.json"}
}

// claudeSettingsFiles lists the files in increasing precedence: the user's
// (in CLAUDE_CONFIG_DIR, else ~/.claude), the project's shared and local
// ones (of the project root and, when it differs, the current directory),
// then the managed ones.
func claudeSettingsFiles(e CheckEnv) []claudeSettingsFile {
	root := transcript.ClaudeSource().StoreRoot(transcript.Env{Home: e.Home, Getenv: e.Getenv})
	files := []claudeSettingsFile{{path: filepath.Join(root, "settings.json")}}
	dirs := []string{e.Project}
	if e.Cwd != "" && e.Cwd != e.Project {
		dirs = append(dirs, e.Cwd)
	}
	for _, name := range []string{"settings.json", "settings.local.json"} {
		for _, d := range dirs {
			if d != "" {
				files = append(files, claudeSettingsFile{path: filepath.Join(d, ".claude", name)})
			}
		}
	}
	for _, m := range claudeManagedFiles() {
		files = append(files, claudeSettingsFile{path: m, managed: true})
	}
	return files
}

// claudeCheck reports settings that stop the SessionStart hook ai-memory
// passes with --settings from running: disableAllHooks (the value of the
// highest layer that sets it wins, and our --settings does not set it, so
// as not to re-enable the user's own hooks) and a managed
// allowManagedHooksOnly. Delivery then fails silently, so it is a failure.
func claudeCheck(e CheckEnv) []Finding {
	var out []Finding
	disabledBy := ""
	for _, f := range claudeSettingsFiles(e) {
		s, err := readClaudeSettings(e, f.path)
		if err != nil {
			out = append(out, Finding{LevelWarn, "settings", err.Error()})
			continue
		}
		if v, ok := s["disableAllHooks"].(bool); ok {
			disabledBy = ""
			if v {
				disabledBy = f.path
			}
		}
		if only, _ := s["allowManagedHooksOnly"].(bool); only && f.managed {
			out = append(out, Finding{LevelFail, "delivery", fmt.Sprintf(
				"%s sets allowManagedHooksOnly, so the SessionStart hook that hands the packet over never runs; ask your administrator, or use another harness for handoffs", f.path)})
		}
	}
	if disabledBy != "" {
		out = append(out, Finding{LevelFail, "delivery", fmt.Sprintf(
			"disableAllHooks is true in %s, so the SessionStart hook that hands the packet over never runs; remove it (or set \"disableAllHooks\": false in a higher layer, e.g. .claude/settings.local.json)", disabledBy)})
	}
	if !hasLevel(out, LevelFail) {
		out = append(out, Finding{LevelOK, "delivery", "SessionStart hook by --settings; no settings file disables hooks"})
	}
	return out
}

// readClaudeSettings parses one settings file; a missing file is empty.
func readClaudeSettings(e CheckEnv, path string) (map[string]any, error) {
	data, err := e.readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s is not a JSON object (%v); Claude Code will not use it", path, err)
	}
	return s, nil
}
