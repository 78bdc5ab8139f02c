package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// claudeHookInput is the part of Claude's SessionStart hook input we use.
type claudeHookInput struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path,omitempty"`
	Cwd            string `json:"cwd,omitempty"`
	HookEventName  string `json:"hook_event_name,omitempty"`
	Source         string `json:"source,omitempty"`
}

// claudeHookOutput is Claude's documented hook output for SessionStart.
type claudeHookOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// ClaudeSessionStartHook is the body of `ai-memory hook claude-session-start`.
// It reads Claude's SessionStart hook JSON from stdin, prints the packet part
// named by AI_MEMORY_PACKET_PART (all of it when unset) as
// hookSpecificOutput.additionalContext, and then acknowledges delivery for
// the session in AI_MEMORY_PACKET_ACK_DIR. Without AI_MEMORY_PACKET_FILE (an
// unmanaged Claude run) it prints nothing and succeeds.
func ClaudeSessionStartHook(stdin io.Reader, stdout io.Writer, getenv func(string) string) error {
	packetFile := getenv(EnvPacketFile)
	if packetFile == "" {
		return nil
	}
	var in claudeHookInput
	if err := json.NewDecoder(stdin).Decode(&in); err != nil {
		return fmt.Errorf("read claude hook input: %w", err)
	}
	if in.HookEventName != "" && in.HookEventName != "SessionStart" {
		return nil
	}
	if err := checkSessionID(in.SessionID); err != nil {
		return err
	}
	i, n, err := parsePart(getenv(EnvPacketPart))
	if err != nil {
		return err
	}
	text, err := readPart(packetFile, i, n)
	if err != nil {
		return err
	}
	if err := writeHookOutput(stdout, text); err != nil {
		return err
	}
	return acknowledge(getenv(EnvPacketAckDir), in, i, n)
}

// readPart returns part i of n of the packet file, with its header.
func readPart(path string, i, n int) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read handoff packet: %w", err)
	}
	parts := []string{string(data)}
	if n > 1 {
		parts = splitPacket(string(data))
	}
	if len(parts) != n {
		return "", fmt.Errorf("read handoff packet: it has %d parts but the hook was set up for %d", len(parts), n)
	}
	return partText(parts[i-1], i, n), nil
}

func writeHookOutput(w io.Writer, text string) error {
	var out claudeHookOutput
	out.HookSpecificOutput.HookEventName = "SessionStart"
	out.HookSpecificOutput.AdditionalContext = text
	if err := json.NewEncoder(w).Encode(out); err != nil {
		return fmt.Errorf("write claude hook output: %w", err)
	}
	return nil
}

// checkSessionID rejects ids that could escape the ack directory.
func checkSessionID(id string) error {
	if id == "" || id == "." || id == ".." || strings.ContainsAny(id, `/\`) || strings.HasPrefix(id, ".") {
		return fmt.Errorf("claude hook input has an unusable session_id %q", id)
	}
	return nil
}

// ackName is the acknowledgement file of part i of n for a session.
func ackName(sessionID string, i, n int) string {
	return fmt.Sprintf("%s.%d-of-%d", sessionID, i, n)
}

// acknowledge records (0600, in a 0700 dir) that part i of n reached the
// session. The file holds the hook input, so the launcher can also learn the
// transcript path. No ack dir means nobody is waiting for one.
func acknowledge(dir string, in claudeHookInput, i, n int) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("acknowledge handoff: %w", err)
	}
	data, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("acknowledge handoff: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, ackName(in.SessionID, i, n)), data, 0o600); err != nil {
		return fmt.Errorf("acknowledge handoff: %w", err)
	}
	return nil
}

// Acknowledged reports whether the hook delivered every part of the packet
// to sessionID, according to the files in ackDir.
func Acknowledged(ackDir, sessionID string) bool {
	complete, err := ackedSessions(ackDir)
	return err == nil && complete[sessionID]
}

// AcknowledgedSessions lists, sorted, the sessions that received every part
// of the packet. The launcher uses it when the session id was unknown before
// spawn (claude --continue, --fork-session). A missing ackDir is no sessions.
func AcknowledgedSessions(ackDir string) ([]string, error) {
	complete, err := ackedSessions(ackDir)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(complete))
	for id, ok := range complete {
		if ok {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// ackedSessions maps each session with ack files to whether all its parts
// are present.
func ackedSessions(ackDir string) (map[string]bool, error) {
	entries, err := os.ReadDir(ackDir)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read handoff acknowledgements: %w", err)
	}
	seen := map[string]map[int]bool{}
	total := map[string]int{}
	for _, e := range entries {
		id, i, n, ok := parseAckName(e.Name())
		if !ok {
			continue
		}
		if seen[id] == nil {
			seen[id] = map[int]bool{}
		}
		seen[id][i] = true
		total[id] = n
	}
	complete := make(map[string]bool, len(seen))
	for id, parts := range seen {
		complete[id] = len(parts) == total[id]
	}
	return complete, nil
}

// parseAckName splits "<id>.<i>-of-<n>".
func parseAckName(name string) (id string, i, n int, ok bool) {
	dot := strings.LastIndexByte(name, '.')
	if dot <= 0 {
		return "", 0, 0, false
	}
	a, b, found := strings.Cut(name[dot+1:], "-of-")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !found || err1 != nil || err2 != nil || i < 1 || i > n {
		return "", 0, 0, false
	}
	return name[:dot], i, n, true
}
