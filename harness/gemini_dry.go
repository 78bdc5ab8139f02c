package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// geminiDryTimeout bounds one dry start (Node loads ~100 MB of bundle; a
// busy machine took 25 s for the TUI).
const geminiDryTimeout = 90 * time.Second

// geminiDrySettings is the scratch home's settings.json: API-key auth (the
// key is never used: model calls are answered from the fake-responses
// file), no folder-trust dialog, no update check, no telemetry or usage
// statistics, and no startup session cleanup. %s is the user subset.
const geminiDrySettings = `{
  "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
  "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false, "sessionRetention": {"enabled": false}},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false}
}`

// geminiFakeResponses answers every kind of model call the dry start could
// make (non-strict mode picks them by method), so it never needs the
// network; a dry start is normally killed before it gets that far.
const geminiFakeResponses = `{"method":"generateContentStream","response":[{"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]},"finishReason":"STOP","index":0}]}]}
{"method":"generateContent","response":{"candidates":[{"content":{"role":"model","parts":[{"text":"{}"}]},"finishReason":"STOP","index":0}]}}
{"method":"countTokens","response":{"totalTokens":1}}
`

// geminiDryStart runs the dry start of s in a scratch directory under the
// cache and returns the prompt Gemini wrote, with the scratch home's path
// replaced by the real home.
func geminiDryStart(s geminiShape) (string, error) {
	if err := os.MkdirAll(s.CacheDir, 0o700); err != nil {
		return "", err
	}
	scratch, err := os.MkdirTemp(s.CacheDir, "dry-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(scratch)
	home := filepath.Join(scratch, "home")
	out := filepath.Join(scratch, "system.md")
	if err := geminiSeedScratch(s, scratch, home); err != nil {
		return "", err
	}
	argv := []string{"--fake-responses-non-strict", filepath.Join(scratch, "fake.jsonl")}
	if !s.Interactive {
		argv = append([]string{"-p", "ai-memory dry start"}, argv...)
	}
	argv = append(argv, s.Flags...)
	env := geminiDryEnv(os.Environ(), home, out, scratch)
	text, err := runDryStart(s.Exe, argv, env, s.Cwd, out, geminiDryTimeout)
	if err != nil {
		return "", err
	}
	return strings.ReplaceAll(text, home, s.Home), nil
}

// geminiSeedScratch writes the scratch home: settings, and a copy of the
// user's projects.json so that the project's temp directory gets the same
// slug as in the real store (the prompt names it).
func geminiSeedScratch(s geminiShape, scratch, home string) error {
	dir := filepath.Join(home, ".gemini")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	settings, err := mergeJSON(geminiDrySettings, s.Settings)
	if err != nil {
		return err
	}
	files := map[string]string{
		filepath.Join(dir, "settings.json"):   settings,
		filepath.Join(scratch, "fake.jsonl"):  geminiFakeResponses,
		filepath.Join(scratch, "system.json"): "{}",
	}
	if b, err := os.ReadFile(filepath.Join(s.Home, ".gemini", "projects.json")); err == nil {
		files[filepath.Join(dir, "projects.json")] = string(b)
	}
	for p, c := range files {
		if err := os.WriteFile(p, []byte(c), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// geminiDryEnv is the launcher's environment without Gemini's and Google's
// own variables (auth, endpoints, sandbox, system settings), plus the
// scratch home, a placeholder key and the prompt dump. Proxy variables are
// kept: anything the dry start sent would go where the user's traffic goes.
func geminiDryEnv(environ []string, home, out, scratch string) []string {
	var env []string
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GEMINI_") || strings.HasPrefix(k, "GOOGLE_") || k == "SANDBOX" ||
			strings.HasPrefix(k, "AI_MEMORY_") {
			continue
		}
		env = append(env, kv)
	}
	none := filepath.Join(scratch, "system.json")
	return append(env, "GEMINI_CLI_HOME="+home, "GEMINI_API_KEY=ai-memory-dry-start",
		"GEMINI_WRITE_SYSTEM_MD="+out, "GEMINI_TELEMETRY_ENABLED=0", "GEMINI_CLI_NO_RELAUNCH=true",
		"GEMINI_SANDBOX=false", "GEMINI_CLI_SYSTEM_SETTINGS_PATH="+none,
		"GEMINI_CLI_SYSTEM_DEFAULTS_PATH="+none)
}

// mergeJSON overlays the members of the JSON object over on base, merging
// one level deep where both hold an object (settings sections).
func mergeJSON(base, over string) (string, error) {
	var b, o map[string]any
	if err := json.Unmarshal([]byte(base), &b); err != nil {
		return "", fmt.Errorf("decode settings: %w", err)
	}
	if err := json.Unmarshal([]byte(over), &o); err != nil {
		return "", fmt.Errorf("decode user settings: %w", err)
	}
	for k, v := range o {
		bm, ok1 := b[k].(map[string]any)
		om, ok2 := v.(map[string]any)
		if !ok1 || !ok2 {
			b[k] = v
			continue
		}
		for kk, vv := range om {
			bm[kk] = vv
		}
	}
	out, err := json.Marshal(b)
	return string(out), err
}

// waitStable waits until path holds the same non-empty content twice,
// 300 ms apart, or done is closed (then one last read decides).
func waitStable(path string, done <-chan struct{}, timeout time.Duration) (string, error) {
	deadline := time.After(timeout)
	var last []byte
	for {
		cur, _ := os.ReadFile(path)
		if len(cur) > 0 && bytes.Equal(cur, last) {
			return string(cur), nil
		}
		last = cur
		select {
		case <-done:
			if cur, _ := os.ReadFile(path); len(cur) > 0 {
				return string(cur), nil
			}
			return "", errors.New("the dry start exited without writing its system prompt")
		case <-deadline:
			return "", fmt.Errorf("the dry start wrote no system prompt within %s", timeout)
		case <-time.After(300 * time.Millisecond):
		}
	}
}
