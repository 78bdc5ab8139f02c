package harness

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/ai-memory/ai-memory/transcript"
)

// codexCheck reports a top-level developer_instructions in the user's
// config.toml: a run that hands a packet to a fresh session passes its own
// -c developer_instructions, which replaces the user's for that run (the
// planner does not read config files). Delivery works, so it is a warning.
func codexCheck(e CheckEnv) []Finding {
	path := filepath.Join(transcript.CodexSource().StoreRoot(transcript.Env{Home: e.Home, Getenv: e.Getenv}), "config.toml")
	data, err := e.readFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return []Finding{{LevelWarn, "settings", fmt.Sprintf("cannot read %s: %v", path, err)}}
	case tomlTopLevelKey(data, "developer_instructions"):
		return []Finding{{LevelWarn, "delivery", fmt.Sprintf(
			"%s sets developer_instructions; a fresh session that receives a handoff gets the packet in their place for that run (pass yours as `ai-memory run codex -c developer_instructions=...` to have both)", path)}}
	}
	return []Finding{{LevelOK, "delivery", "-c developer_instructions (fresh), -c model_instructions_file (resumed)"}}
}

// tomlTopLevelKey reports whether key is assigned before the first table
// header of a TOML document (a line scan: enough to find a plain key).
func tomlTopLevelKey(data []byte, key string) bool {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			return false
		}
		k, _, ok := strings.Cut(line, "=")
		if ok && strings.Trim(strings.TrimSpace(k), `"'`) == key {
			return true
		}
	}
	return false
}
