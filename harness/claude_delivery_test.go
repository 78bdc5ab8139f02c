package harness

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

var testHook = []string{"/opt/ai memory/ai-memory", "hook", "claude"}

func deliveryRequest(args ...string) Request {
	return Request{Args: args, NewSessionID: "N", Packet: "PACKET", RunDir: "/run/r1", HookCommand: testHook, StdinTTY: true}
}

// settingsArg returns the parsed JSON value of the last --settings in args.
func settingsArg(t *testing.T, args []string) map[string]any {
	t.Helper()
	i := lastFlagIndex(args, claudeSettingsOpt)
	if i < 0 {
		t.Fatalf("no --settings in %q", args)
	}
	v, _ := flagValueAt(args, i)
	var m map[string]any
	if err := json.Unmarshal([]byte(v), &m); err != nil {
		t.Fatalf("--settings value %q: %v", v, err)
	}
	return m
}

// sessionStartCommands lists the commands of every SessionStart hook.
func sessionStartCommands(t *testing.T, settings map[string]any) []string {
	t.Helper()
	var cmds []string
	groups, _ := settings["hooks"].(map[string]any)["SessionStart"].([]any)
	for _, g := range groups {
		for _, h := range g.(map[string]any)["hooks"].([]any) {
			cmds = append(cmds, h.(map[string]any)["command"].(string))
		}
	}
	return cmds
}

func TestClaude_PlanDelivery(t *testing.T) {
	p, err := planWith(claude{}, deliveryRequest("-p", "hi"))
	if err != nil {
		t.Fatal(err)
	}
	wantCmd := `'/opt/ai memory/ai-memory' 'hook' 'claude' 'session-start'`
	if got := sessionStartCommands(t, settingsArg(t, p.Args)); !reflect.DeepEqual(got, []string{wantCmd}) {
		t.Errorf("hook commands = %q, want %q", got, wantCmd)
	}
	if !reflect.DeepEqual(p.Args[:4], []string{"-p", "hi", "--session-id", "N"}) {
		t.Errorf("Args = %q, want the session flag before --settings", p.Args)
	}
	wantFiles := []File{{Path: "/run/r1/packet.md", Content: "PACKET"}}
	wantEnv := map[string]string{EnvPacketFile: "/run/r1/packet.md", EnvPacketAckDir: "/run/r1/acks"}
	if p.Delivery != DeliveryHook || !reflect.DeepEqual(p.Files, wantFiles) || !reflect.DeepEqual(p.Env, wantEnv) || len(p.Notices) != 0 {
		t.Errorf("delivery %v files %v env %v notices %q", p.Delivery, p.Files, p.Env, p.Notices)
	}
}

func TestClaude_PlanDeliveryMergesUserSettings(t *testing.T) {
	userFile := `{"model":"opus","hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"echo mine"}]}],"Stop":[]},"n":1.50}`
	reads := 0
	c := claude{readFile: func(path string) ([]byte, error) {
		reads++
		if path != "my settings.json" {
			return nil, os.ErrNotExist
		}
		return []byte(userFile), nil
	}}
	tests := []struct {
		name string
		args []string
	}{
		{"Inline", []string{"--settings", userFile, "hi"}},
		{"InlineEquals", []string{"--settings=" + userFile}},
		{"File", []string{"--settings", "my settings.json"}},
		{"LastOneWins", []string{"--settings", "{}", "--settings", "my settings.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := planWith(c, deliveryRequest(tt.args...))
			if err != nil {
				t.Fatal(err)
			}
			s := settingsArg(t, p.Args)
			cmds := sessionStartCommands(t, s)
			if len(cmds) != 2 || cmds[0] != "echo mine" || !strings.Contains(cmds[1], "'hook' 'claude' 'session-start'") {
				t.Errorf("SessionStart commands = %q, want theirs then ours", cmds)
			}
			if s["model"] != "opus" || s["n"] != 1.5 || s["hooks"].(map[string]any)["Stop"] == nil {
				t.Errorf("merged settings lost the user's keys: %v", s)
			}
			if countOf(p.Args, claudeSettingsOpt)+countPrefix(p.Args, claudeSettingsOpt+"=") != countOf(tt.args, claudeSettingsOpt)+countPrefix(tt.args, claudeSettingsOpt+"=") {
				t.Errorf("Args = %q: a --settings was added instead of merged", p.Args)
			}
			if p.Delivery != DeliveryHook || len(p.Notices) != 1 || p.Notices[0] != claudeSettingsNote {
				t.Errorf("delivery %v notices %q", p.Delivery, p.Notices)
			}
		})
	}
	if reads == 0 {
		t.Error("the settings file was never read")
	}
}

func countPrefix(args []string, prefix string) int {
	n := 0
	for _, a := range args {
		if strings.HasPrefix(a, prefix) {
			n++
		}
	}
	return n
}

func TestClaude_PlanDeliverySkipped(t *testing.T) {
	c := claude{readFile: func(path string) ([]byte, error) {
		if path == "/arr.json" {
			return []byte("[1]"), nil
		}
		return nil, errors.New("permission denied")
	}}
	tests := []struct {
		name, notice string
		args         []string
	}{
		{"NotJSON", "not a JSON object", []string{"--settings", "{broken"}},
		{"FileNotObject", "not a JSON object", []string{"--settings", "/arr.json"}},
		{"UnreadableFile", "permission denied", []string{"--settings", "/x/settings.json"}},
		{"NoValue", "no value", []string{"--settings"}},
		{"HooksNotObject", `"hooks" in your --settings is not an object`, []string{"--settings", `{"hooks":[]}`}},
		{"SessionStartNotList", "not a list", []string{"--settings", `{"hooks":{"SessionStart":{}}}`}},
		{"HooksDisabled", "disableAllHooks", []string{"--settings", `{"disableAllHooks":true}`}},
		{"Bare", "--bare", []string{"--bare", "-p", "hi"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := deliveryRequest(tt.args...)
			p, err := planWith(c, r)
			if err != nil {
				t.Fatal(err)
			}
			want := append(append([]string(nil), tt.args...), "--session-id", "N")
			if !reflect.DeepEqual(p.Args, want) {
				t.Errorf("Args = %q, want the user's args untouched plus the session flag %q", p.Args, want)
			}
			if p.Delivery != DeliveryNone || len(p.Files) != 0 || len(p.Env) != 0 {
				t.Errorf("delivery %v files %v env %v, want none", p.Delivery, p.Files, p.Env)
			}
			if len(p.Notices) != 1 || !strings.Contains(p.Notices[0], tt.notice) || !strings.Contains(p.Notices[0], "did not deliver") {
				t.Errorf("notices = %q, want one mentioning %q", p.Notices, tt.notice)
			}
		})
	}
}

func TestClaude_PlanDeliveryRequiresRunDir(t *testing.T) {
	for _, r := range []Request{
		{Packet: "P", NewSessionID: "N", HookCommand: testHook},
		{Packet: "P", NewSessionID: "N", RunDir: "/run"},
	} {
		if _, err := planWith(claude{}, r); err == nil {
			t.Errorf("Plan(%+v) succeeded without run dir or hook command", r)
		}
	}
}

func TestClaude_PlanDeliveryLargePacketInParts(t *testing.T) {
	r := deliveryRequest()
	r.Packet = strings.Repeat("0123456789abcdef\n", 2000) // 34,000 chars
	p, err := planWith(claude{}, r)
	if err != nil {
		t.Fatal(err)
	}
	cmds := sessionStartCommands(t, settingsArg(t, p.Args))
	if len(cmds) != 4 {
		t.Fatalf("got %d hook commands, want 4: %q", len(cmds), cmds)
	}
	for i, c := range cmds {
		if want := EnvPacketPart + "=" + string(rune('1'+i)) + "/4 "; !strings.HasPrefix(c, want) {
			t.Errorf("command %d = %q, want prefix %q", i, c, want)
		}
	}
}

// TestShellQuote runs quoted words through sh, which is what Claude does
// with a hook's command string.
func TestShellQuote(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	words := []string{"/a b/c", "it's", `"q"`, "$HOME", "`id`", "back\\slash", "", "new\nline"}
	out, err := exec.Command(sh, "-c", `printf '%s\0' `+shellQuote(words)).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if !reflect.DeepEqual(got, words) {
		t.Errorf("sh saw %q, want %q", got, words)
	}
}

func TestClaudeHookGroupShape(t *testing.T) {
	g := claudeHookGroup([]string{"/x"}, 1)
	js, err := marshalJSON(g)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"hooks":[{"command":"'/x'","timeout":30,"type":"command"}],"matcher":"startup|resume|clear"}`
	if js != want {
		t.Errorf("group = %s, want %s", js, want)
	}
}
