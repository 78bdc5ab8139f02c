package sessionindex

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// ErrRuntimeRequired is returned when no runtime was given or detected.
var ErrRuntimeRequired = errors.New("runtime unknown: pass --runtime NAME (the agent's harness name) or run inside a supported agent")

var runtimePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,31}$`) })

// maxNativeID and maxFocus bound what a caller can put into one record.
const (
	maxNativeID = 256
	maxFocus    = 280
)

// NormalizeRuntime lower-cases a runtime name and checks that it is a short
// slug, since it becomes part of the record id. Harness aliases are mapped
// to canonical names by the callers, which know the harness registry.
func NormalizeRuntime(rt string) (string, error) {
	rt = strings.ToLower(strings.TrimSpace(rt))
	if rt == "" {
		return "", ErrRuntimeRequired
	}
	if !runtimePattern().MatchString(rt) {
		return "", fmt.Errorf("runtime %q is not a valid name: use lower-case letters, digits, '.', '_' or '-'", rt)
	}
	return rt, nil
}

// checkNativeID rejects ids that would make the file hard to read or that
// cannot be what a harness prints: empty, too long, whitespace or controls.
func checkNativeID(id string) error {
	if id == "" || len(id) > maxNativeID {
		return fmt.Errorf("native id must be 1..%d bytes", maxNativeID)
	}
	if strings.IndexFunc(id, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return fmt.Errorf("native id %q contains whitespace or control characters", id)
	}
	return nil
}

// normalizeFocus makes the focus one line of at most maxFocus runes.
func normalizeFocus(f string) string {
	f = strings.Join(strings.Fields(f), " ")
	if r := []rune(f); len(r) > maxFocus {
		f = string(r[:maxFocus-1]) + "…"
	}
	return f
}

// Native is a session an agent CLI announced in its shell's environment.
type Native struct {
	Runtime, ID string
}

// DetectRuntime finds the runtime and native session id of the agent whose
// shell we are in: the first of native (what the agents' own session
// variables say, in the caller's order), else, inside `ai-memory run`,
// AI_MEMORY_HARNESS (with AI_MEMORY_NATIVE_SESSION_ID when known). Nested
// agents inherit their parent's variables, so explicit flags beat this.
// It returns empty strings when nothing is known.
func DetectRuntime(getenv func(string) string, native []Native) (runtime, nativeID string) {
	for _, n := range native {
		if id := strings.TrimSpace(n.ID); id != "" {
			if rt, err := NormalizeRuntime(n.Runtime); err == nil {
				return rt, id
			}
		}
	}
	if h := strings.TrimSpace(getenv("AI_MEMORY_HARNESS")); h != "" {
		if rt, err := NormalizeRuntime(h); err == nil {
			return rt, strings.TrimSpace(getenv("AI_MEMORY_NATIVE_SESSION_ID"))
		}
	}
	return "", ""
}

// DisabledByEnv reports whether AI_MEMORY_SESSION_INDEX turns the
// launcher's automatic index writes off ("0", "false", "no", "off").
// Explicit `ai-memory sessions` commands still work.
func DisabledByEnv(getenv func(string) string) bool {
	switch strings.ToLower(strings.TrimSpace(getenv("AI_MEMORY_SESSION_INDEX"))) {
	case "0", "false", "no", "off":
		return true
	}
	return false
}
