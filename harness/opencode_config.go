package harness

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// OpenCodeConfigContent returns the OPENCODE_CONFIG_CONTENT value that adds
// packetPath to OpenCode's instructions while keeping everything the user
// already put in that variable (user, "" when unset). OpenCode reads each
// instructions entry as a file and sends it in the system prompt, fresh and
// resumed; its own config files still apply, because this inline config is
// merged after them with arrays concatenated.
//
// The user's value must be a JSON object whose instructions, if present, is
// an array of strings; anything else is an error saying what to fix, and the
// caller then delivers nothing rather than replace the user's config. The
// result has sorted keys (deterministic); other members are kept as they
// were, compacted.
func OpenCodeConfigContent(user, packetPath string) (string, error) {
	cfg := map[string]json.RawMessage{}
	if strings.TrimSpace(user) != "" {
		if err := json.Unmarshal([]byte(user), &cfg); err != nil || cfg == nil {
			return "", fmt.Errorf("%s is not a JSON object; fix or unset it to get the handoff", EnvOpenCodeConfigContent)
		}
	}
	var instr []string
	if raw, ok := cfg["instructions"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &instr); err != nil {
			return "", fmt.Errorf("%s has an instructions member that is not an array of strings; fix it to get the handoff", EnvOpenCodeConfigContent)
		}
	}
	if !slices.Contains(instr, packetPath) {
		instr = append(instr, packetPath)
	}
	raw, err := json.Marshal(instr)
	if err != nil { // cannot happen for []string
		return "", fmt.Errorf("encode opencode instructions: %w", err)
	}
	cfg["instructions"] = raw
	out, err := json.Marshal(cfg)
	if err != nil { // cannot happen: every member is valid JSON
		return "", fmt.Errorf("encode %s: %w", EnvOpenCodeConfigContent, err)
	}
	return string(out), nil
}
