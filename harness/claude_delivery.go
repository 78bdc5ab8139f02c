package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Files and settings of the Claude delivery. The hook runs on startup, resume
// and /clear (which starts a new session); not on compact, whose summary
// already carries what was delivered.
const (
	claudePacketName   = "packet.md"
	claudeAckDirName   = "acks"
	claudeHookEvent    = "session-start"
	claudeHookMatcher  = "startup|resume|clear"
	claudeHookTimeout  = 30 // seconds
	claudeSettingsOpt  = "--settings"
	claudeSettingsNote = "your --settings was merged with ai-memory's settings for this run (your file was not changed)"
)

// claudeAdditions is what ai-memory adds to Claude's settings for one run:
// the SessionStart hook group that delivers the packet (nil = none) and
// permission rules for the MCP server it registered.
type claudeAdditions struct {
	hook  map[string]any
	allow []string
}

// deliver adds the SessionStart hook that hands the packet to Claude (and
// the allow rules, in the same settings). When the user passed --settings,
// ours are merged into a copy of theirs; if theirs cannot be used, delivery
// is skipped with a notice, never clobbered, and the allow rules alone are
// still tried.
func (c claude) deliver(p *Plan, args []string, r Decision, allow []string) ([]string, error) {
	if r.RunDir == "" || len(r.HookCommand) == 0 {
		return nil, errors.New("plan claude handoff: the launcher must supply a run directory and a hook command")
	}
	if hasFlag(args, "--bare") {
		p.Notices = append(p.Notices, skipNotice("claude --bare does not run hooks; drop --bare to receive it"))
		return c.addSettings(p, args, claudeAdditions{allow: allow})
	}
	hook := append(append([]string(nil), r.HookCommand...), claudeHookEvent)
	group := claudeHookGroup(hook, len(splitPacket(r.Packet)))
	out, notice, err := c.withSettings(args, claudeAdditions{hook: group, allow: allow})
	var skip errNoDelivery
	if errors.As(err, &skip) {
		p.Notices = append(p.Notices, skipNotice(skip.reason))
		return c.addSettings(p, args, claudeAdditions{allow: allow})
	}
	if err != nil {
		return nil, err
	}
	if notice != "" {
		p.Notices = append(p.Notices, notice)
	}
	packetPath := filepath.Join(r.RunDir, claudePacketName)
	p.Files = append(p.Files, File{Path: packetPath, Content: r.Packet})
	ackDir := filepath.Join(r.RunDir, claudeAckDirName)
	p.Env = mergeEnv(p.Env, map[string]string{EnvPacketFile: packetPath, EnvPacketAckDir: ackDir})
	p.Confirm = AckFiles{Dir: ackDir}
	return out, nil
}

// addSettings adds add (without a hook) to the run's settings; when the
// user's --settings cannot take it, args are kept and a notice says so.
func (c claude) addSettings(p *Plan, args []string, add claudeAdditions) ([]string, error) {
	if len(add.allow) == 0 && add.hook == nil {
		return args, nil
	}
	out, notice, err := c.withSettings(args, add)
	var skip errNoDelivery
	if errors.As(err, &skip) {
		p.Notices = append(p.Notices, fmt.Sprintf("ai-memory's MCP tools were not pre-approved this run (%s); Claude asks before each call", skip.reason))
		return args, nil
	}
	if err != nil {
		return nil, err
	}
	if notice != "" {
		p.Notices = append(p.Notices, notice)
	}
	return out, nil
}

// withSettings appends --settings <our JSON>, or replaces the value of the
// user's last --settings with their settings plus ours.
func (c claude) withSettings(args []string, add claudeAdditions) ([]string, string, error) {
	i := lastFlagIndex(args, claudeSettingsOpt)
	if i < 0 {
		settings := map[string]any{}
		if err := add.apply(settings); err != nil {
			return nil, "", err
		}
		js, err := marshalJSON(settings)
		if err != nil {
			return nil, "", fmt.Errorf("encode claude settings: %w", err)
		}
		return appendOptions(args, claudeSettingsOpt, js), "", nil
	}
	value, vi := flagValueAt(args, i)
	if vi < 0 || value == "" {
		return nil, "", errNoDelivery{"your --settings has no value"}
	}
	merged, err := c.mergeSettings(value, add)
	if err != nil {
		return nil, "", err
	}
	out := append([]string(nil), args...)
	if vi == i {
		out[i] = claudeSettingsOpt + "=" + merged
	} else {
		out[vi] = merged
	}
	return out, claudeSettingsNote, nil
}

// mergeSettings parses the user's --settings value (inline JSON or a file
// path, as Claude decides: JSON when it starts with '{') and adds ours.
func (c claude) mergeSettings(value string, add claudeAdditions) (string, error) {
	raw := []byte(value)
	if !strings.HasPrefix(strings.TrimSpace(value), "{") {
		data, err := c.readSettings(value)
		if err != nil {
			return "", errNoDelivery{fmt.Sprintf("could not read your --settings file (%v)", err)}
		}
		raw = data
	}
	var settings map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&settings); err != nil || settings == nil {
		return "", errNoDelivery{"your --settings is not a JSON object, so ai-memory's settings could not be merged into it"}
	}
	if err := add.apply(settings); err != nil {
		return "", err
	}
	js, err := marshalJSON(settings)
	if err != nil {
		return "", fmt.Errorf("encode merged claude settings: %w", err)
	}
	return js, nil
}

// apply adds the hook group and the allow rules to settings, refusing
// shapes Claude would not accept.
func (a claudeAdditions) apply(settings map[string]any) error {
	if a.hook != nil {
		if off, _ := settings["disableAllHooks"].(bool); off {
			return errNoDelivery{"your --settings sets disableAllHooks"}
		}
		if err := addSessionStart(settings, a.hook); err != nil {
			return err
		}
	}
	if len(a.allow) == 0 {
		return nil
	}
	perms, ok := settings["permissions"].(map[string]any)
	if settings["permissions"] != nil && !ok {
		return errNoDelivery{"the \"permissions\" in your --settings is not an object"}
	}
	if perms == nil {
		perms = map[string]any{}
	}
	rules, ok := perms["allow"].([]any)
	if perms["allow"] != nil && !ok {
		return errNoDelivery{"the \"permissions.allow\" in your --settings is not a list"}
	}
	for _, r := range a.allow {
		rules = append(rules, r)
	}
	perms["allow"] = rules
	settings["permissions"] = perms
	return nil
}

// marshalJSON encodes v compactly without HTML escaping, so shell commands
// stay readable in argv and in process listings.
func marshalJSON(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// addSessionStart appends group to settings.hooks.SessionStart, creating the
// levels that are missing and refusing shapes Claude would not accept.
func addSessionStart(settings map[string]any, group map[string]any) error {
	hooks, ok := settings["hooks"].(map[string]any)
	if settings["hooks"] != nil && !ok {
		return errNoDelivery{"the \"hooks\" in your --settings is not an object"}
	}
	if hooks == nil {
		hooks = map[string]any{}
	}
	start, ok := hooks["SessionStart"].([]any)
	if hooks["SessionStart"] != nil && !ok {
		return errNoDelivery{"the \"hooks.SessionStart\" in your --settings is not a list"}
	}
	hooks["SessionStart"] = append(start, group)
	settings["hooks"] = hooks
	return nil
}

// claudeHookGroup is one SessionStart matcher group running our hook once
// per packet part. Each command carries its part in the environment so the
// commands differ (Claude deduplicates identical hook commands).
func claudeHookGroup(hookCommand []string, parts int) map[string]any {
	if parts < 1 {
		parts = 1
	}
	cmd := shellQuote(hookCommand)
	hooks := make([]any, 0, parts)
	for i := 1; i <= parts; i++ {
		command := cmd
		if parts > 1 {
			command = EnvPacketPart + "=" + strconv.Itoa(i) + "/" + strconv.Itoa(parts) + " " + cmd
		}
		hooks = append(hooks, map[string]any{"type": "command", "command": command, "timeout": claudeHookTimeout})
	}
	return map[string]any{"matcher": claudeHookMatcher, "hooks": hooks}
}

// mergeEnv returns dst with src added, allocating dst when needed.
func mergeEnv(dst, src map[string]string) map[string]string {
	if dst == nil {
		dst = make(map[string]string, len(src))
	}
	for k, v := range src {
		dst[k] = v
	}
	return dst
}
