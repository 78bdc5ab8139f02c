package harnesstest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/google/uuid"
)

// Claude Code moves hook context longer than this many characters (UTF-16
// units) into a file and gives the model only a preview of this length.
const (
	claudeContextLimit   = 10000
	claudeContextPreview = 2000
)

type claudeHookGroup struct {
	Matcher string `json:"matcher"`
	Hooks   []struct {
		Type    string  `json:"type"`
		Command string  `json:"command"`
		Timeout float64 `json:"timeout"`
	} `json:"hooks"`
}

// sessionStartGroups reads hooks.SessionStart from the last --settings
// (inline JSON when it starts with '{', else a file), as commander keeps
// only the last value.
func (r *claudeRun) sessionStartGroups() ([]claudeHookGroup, error) {
	if len(r.a.settings) == 0 || r.a.bare {
		return nil, nil
	}
	value := r.a.settings[len(r.a.settings)-1]
	raw := []byte(value)
	if !strings.HasPrefix(strings.TrimSpace(value), "{") {
		path := value
		if !filepath.IsAbs(path) {
			path = filepath.Join(r.inv.cwd, path)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, claudeExit{1, fmt.Sprintf("Error: Settings file not found: %s", value)}
		}
		raw = data
	}
	var s struct {
		DisableAllHooks bool `json:"disableAllHooks"`
		Hooks           struct {
			SessionStart []claudeHookGroup `json:"SessionStart"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, claudeExit{1, fmt.Sprintf("Error: Invalid JSON provided to --settings: %v", err)}
	}
	if s.DisableAllHooks {
		return nil, nil
	}
	return s.Hooks.SessionStart, nil
}

// sessionStart runs the matching SessionStart hooks in order and records
// their results as hook attachments, like the real CLI.
func (r *claudeRun) sessionStart() error {
	groups, err := r.sessionStartGroups()
	if err != nil {
		return err
	}
	for _, g := range groups {
		if !matcherMatches(g.Matcher, r.source) {
			continue
		}
		for _, h := range g.Hooks {
			if h.Type == "command" {
				r.runHook(h.Command, h.Timeout)
			}
		}
	}
	return nil
}

// matcherMatches applies a SessionStart matcher to the source: empty and
// "*" match everything, anything else is an anchored regular expression.
func matcherMatches(matcher, source string) bool {
	if matcher == "" || matcher == "*" {
		return true
	}
	re, err := regexp.Compile("^(?:" + matcher + ")$")
	return err == nil && re.MatchString(source)
}

// runHook runs one command through sh with the hook input on stdin.
func (r *claudeRun) runHook(command string, timeout float64) {
	if timeout <= 0 {
		timeout = 60
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(timeout*float64(time.Second)))
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir, cmd.Env = r.inv.cwd, append(append([]string{}, r.inv.environ...), "CLAUDE_PROJECT_DIR="+r.inv.cwd)
	cmd.Stdin = bytes.NewReader(r.hookInput())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := r.inv.now()
	err := cmd.Run()
	text := ""
	if err == nil {
		text = r.limitContext(hookContext(stdout.Bytes()))
	}
	if text != "" {
		r.contexts = append(r.contexts, text)
	}
	// Claude 2.1.332 records SessionStart hook results only for a new
	// session; on --resume the context reaches the model unrecorded.
	if r.source == "resume" {
		return
	}
	r.hookRecords(command, err, cmd, stdout.String(), stderr.String(), start, text)
}

// hookRecords writes the hook_success (or hook_non_blocking_error) and
// hook_additional_context attachments, shaped like Claude 2.1.332's.
func (r *claudeRun) hookRecords(command string, err error, cmd *exec.Cmd, stdout, stderr string, start time.Time, text string) {
	base := map[string]any{"hookName": "SessionStart:" + r.source, "toolUseID": uuid.NewString(), "hookEvent": "SessionStart"}
	if err != nil {
		code := -1
		if cmd.ProcessState != nil {
			code = cmd.ProcessState.ExitCode()
		}
		r.conversation("attachment", map[string]any{"attachment": withFields(base, map[string]any{
			"type": "hook_non_blocking_error", "command": command, "stderr": stderr, "exitCode": code})})
		return
	}
	r.conversation("attachment", map[string]any{"attachment": withFields(base, map[string]any{
		"type": "hook_success", "command": command, "stdout": stdout, "stderr": stderr,
		"exitCode": 0, "durationMs": elapsedMs(start, r.inv.now), "content": ""})})
	if text != "" {
		r.conversation("attachment", map[string]any{"attachment": map[string]any{
			"type": "hook_additional_context", "content": []string{text},
			"hookName": "SessionStart", "toolUseID": "SessionStart", "hookEvent": "SessionStart"}})
	}
}

// hookInput is Claude's SessionStart hook input, with the fields 2.1.332
// sends in print mode.
func (r *claudeRun) hookInput() []byte {
	in, _ := json.Marshal(map[string]string{
		"session_id": r.sessionID, "transcript_path": r.path, "cwd": r.inv.cwd,
		"hook_event_name": "SessionStart", "source": r.source,
	})
	return in
}

// hookContext is what a SessionStart hook adds: hookSpecificOutput.
// additionalContext from JSON output, else plain stdout.
func hookContext(stdout []byte) string {
	trimmed := bytes.TrimSpace(stdout)
	if !bytes.HasPrefix(trimmed, []byte("{")) {
		return string(trimmed)
	}
	var out struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal(trimmed, &out) != nil || out.HookSpecificOutput.HookEventName != "SessionStart" {
		return ""
	}
	return out.HookSpecificOutput.AdditionalContext
}

// limitContext applies Claude's 10,000-character rule: the full text goes to
// a file in the session directory and the model sees a 2,000-character
// preview and the path.
func (r *claudeRun) limitContext(text string) string {
	if text == "" {
		return ""
	}
	units := utf16.Encode([]rune(text))
	if len(units) <= claudeContextLimit {
		return text
	}
	path := filepath.Join(r.projectDir(), r.sessionID, "tool-results", "hook-"+uuid.NewString()[:8]+"-additionalContext.txt")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err == nil {
		_ = os.WriteFile(path, []byte(text), 0o600)
	}
	preview := string(utf16.Decode(units[:claudeContextPreview]))
	return fmt.Sprintf("<persisted-output>\nOutput too large (%d characters). Full output saved to: %s\n\nPreview (first 2KB):\n%s\n</persisted-output>", len(units), path, preview)
}

func withFields(base, extra map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(extra))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}
