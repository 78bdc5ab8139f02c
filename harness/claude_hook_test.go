package harness

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

// hookEnv builds a getenv over a packet written to a temp run dir.
func hookEnv(t *testing.T, packet string) (getenv func(string) string, set func(k, v string), ackDir string) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "packet.md")
	if err := os.WriteFile(file, []byte(packet), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{EnvPacketFile: file, EnvPacketAckDir: filepath.Join(dir, "acks")}
	return func(k string) string { return env[k] }, func(k, v string) { env[k] = v }, env[EnvPacketAckDir]
}

func hookInput(sessionID, source string) *strings.Reader {
	in, _ := json.Marshal(map[string]string{
		"session_id": sessionID, "transcript_path": "/t/" + sessionID + ".jsonl", "cwd": "/repo",
		"hook_event_name": "SessionStart", "source": source, "model": "claude-opus-4-8",
	})
	return strings.NewReader(string(in))
}

// decodeContext returns additionalContext from the hook's stdout.
func decodeContext(t *testing.T, out []byte) string {
	t.Helper()
	var o struct {
		HookSpecificOutput struct{ HookEventName, AdditionalContext string }
	}
	if err := json.Unmarshal(out, &o); err != nil {
		t.Fatalf("hook output %q: %v", out, err)
	}
	if o.HookSpecificOutput.HookEventName != "SessionStart" {
		t.Errorf("hookEventName = %q", o.HookSpecificOutput.HookEventName)
	}
	return o.HookSpecificOutput.AdditionalContext
}

func TestClaudeSessionStartHook_Delivers(t *testing.T) {
	packet := "<!-- marker -->\nline \"two\" <b>&\n"
	getenv, _, ackDir := hookEnv(t, packet)
	for _, source := range []string{"startup", "resume"} {
		var out bytes.Buffer
		id := "sess-" + source
		if err := ClaudeSessionStartHook(hookInput(id, source), &out, getenv); err != nil {
			t.Fatal(err)
		}
		if got := decodeContext(t, out.Bytes()); got != packet {
			t.Errorf("additionalContext = %q, want %q", got, packet)
		}
		if !Acknowledged(ackDir, id) {
			t.Errorf("%s not acknowledged", id)
		}
		info, err := os.Stat(filepath.Join(ackDir, ackName(id, 1, 1)))
		if err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("ack file: %v, mode %v; want 0600", err, info)
		}
	}
	if Acknowledged(ackDir, "other") {
		t.Error("a session that never ran the hook is acknowledged")
	}
	ids, err := AcknowledgedSessions(ackDir)
	if err != nil || strings.Join(ids, ",") != "sess-resume,sess-startup" {
		t.Errorf("AcknowledgedSessions = %q, %v", ids, err)
	}
}

func TestClaudeSessionStartHook_Unmanaged(t *testing.T) {
	var out bytes.Buffer
	err := ClaudeSessionStartHook(strings.NewReader("not even json"), &out, func(string) string { return "" })
	if err != nil || out.Len() != 0 {
		t.Errorf("unmanaged hook: err %v, output %q; want nothing", err, out.String())
	}
}

func TestClaudeSessionStartHook_Errors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		part  string
		file  string // replaces the packet file path when set
	}{
		{"BadJSON", "{", "", ""},
		{"NoSessionID", `{"hook_event_name":"SessionStart"}`, "", ""},
		{"PathInSessionID", `{"session_id":"../x"}`, "", ""},
		{"DotSessionID", `{"session_id":".."}`, "", ""},
		{"BadPart", `{"session_id":"s"}`, "3/2", ""},
		{"PartCountMismatch", `{"session_id":"s"}`, "1/2", ""},
		{"MissingPacket", `{"session_id":"s"}`, "", "/nonexistent/packet.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv, set, ackDir := hookEnv(t, "small packet")
			set(EnvPacketPart, tt.part)
			if tt.file != "" {
				set(EnvPacketFile, tt.file)
			}
			var out bytes.Buffer
			if err := ClaudeSessionStartHook(strings.NewReader(tt.input), &out, getenv); err == nil {
				t.Error("no error")
			}
			if out.Len() != 0 {
				t.Errorf("printed %q on error", out.String())
			}
			if ids, _ := AcknowledgedSessions(ackDir); len(ids) != 0 {
				t.Errorf("acknowledged %q on error", ids)
			}
		})
	}
}

func TestClaudeSessionStartHook_OtherEventIgnored(t *testing.T) {
	getenv, _, ackDir := hookEnv(t, "p")
	var out bytes.Buffer
	err := ClaudeSessionStartHook(strings.NewReader(`{"session_id":"s","hook_event_name":"Stop"}`), &out, getenv)
	if err != nil || out.Len() != 0 || Acknowledged(ackDir, "s") {
		t.Errorf("err %v, out %q, acked %v; want a silent no-op", err, out.String(), Acknowledged(ackDir, "s"))
	}
}

// TestClaudeSessionStartHook_Parts runs the hook once per planned part, as
// Claude does, and checks every context fits under Claude's 10,000-character
// limit and the parts reassemble into the packet.
func TestClaudeSessionStartHook_Parts(t *testing.T) {
	packet := strings.Repeat("é🙂 event line with some words\n", 900) + strings.Repeat("x", 12000)
	n := len(splitPacket(packet))
	if n < 3 {
		t.Fatalf("test packet splits into %d parts; want several", n)
	}
	getenv, set, ackDir := hookEnv(t, packet)
	var joined strings.Builder
	for i := 1; i <= n; i++ {
		set(EnvPacketPart, strings.Join([]string{strconv.Itoa(i), strconv.Itoa(n)}, "/"))
		var out bytes.Buffer
		if err := ClaudeSessionStartHook(hookInput("s1", "startup"), &out, getenv); err != nil {
			t.Fatal(err)
		}
		ctx := decodeContext(t, out.Bytes())
		if units := len(utf16.Encode([]rune(ctx))); units > 10000 {
			t.Errorf("part %d is %d UTF-16 units; Claude would move it to a file", i, units)
		}
		header, body, _ := strings.Cut(ctx, "\n")
		if !strings.Contains(header, "part "+strconv.Itoa(i)+" of "+strconv.Itoa(n)) {
			t.Errorf("part %d header = %q", i, header)
		}
		joined.WriteString(body)
		if done := Acknowledged(ackDir, "s1"); done != (i == n) {
			t.Errorf("after part %d of %d Acknowledged = %v", i, n, done)
		}
	}
	if joined.String() != packet {
		t.Error("parts do not reassemble into the packet")
	}
}

func TestSplitPacket(t *testing.T) {
	line := strings.Repeat("a", 99) + "\n" // 100 units
	tests := []struct {
		name   string
		packet string
		sizes  []int // byte length of each part
	}{
		{"Empty", "", nil},
		{"Small", "hello", []int{5}},
		{"Exact", strings.Repeat(line, 90), []int{9000}},
		{"CutAtNewline", strings.Repeat(line, 90) + "b", []int{9000, 1}},
		{"PrefersLastNewline", strings.Repeat(line, 89) + strings.Repeat("c", 150), []int{8900, 150}},
		{"NoNewline", strings.Repeat("d", 9001), []int{9000, 1}},
		{"AstralCountsTwo", strings.Repeat("🙂", 4501), []int{4500 * 4, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts := splitPacket(tt.packet)
			var sizes []int
			for _, p := range parts {
				sizes = append(sizes, len(p))
			}
			if strings.Join(parts, "") != tt.packet || !equalInts(sizes, tt.sizes) {
				t.Errorf("part sizes %v, want %v (or parts do not join back)", sizes, tt.sizes)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestParseAckName(t *testing.T) {
	tests := []struct {
		name, id string
		i, n     int
		ok       bool
	}{
		{"abc.1-of-1", "abc", 1, 1, true},
		{"a.b.2-of-3", "a.b", 2, 3, true},
		{"abc", "", 0, 0, false},
		{"abc.4-of-3", "", 0, 0, false},
		{".1-of-1", "", 0, 0, false},
		{"abc.x-of-1", "", 0, 0, false},
	}
	for _, tt := range tests {
		id, i, n, ok := parseAckName(tt.name)
		if id != tt.id || i != tt.i || n != tt.n || ok != tt.ok {
			t.Errorf("parseAckName(%q) = %q %d %d %v", tt.name, id, i, n, ok)
		}
	}
}
