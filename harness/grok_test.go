package harness

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestGrokPlan(t *testing.T) {
	type want struct {
		args        []string
		mode        Mode
		interactive bool
		explicit    bool
		explicitID  string
		session     string
		resume      bool
	}
	const id = "0b7c7a52-1f9e-4a35-9d1c-51a3c4e1d2f0"
	const nu = "11111111-2222-4333-8444-555555555555"
	s := func(a ...string) []string { return append([]string{}, a...) }
	tests := []struct {
		name string
		r    Request
		want want
	}{
		{"fresh TUI gets a chosen id", Request{NewSessionID: nu, StdinTTY: true},
			want{args: s("--session-id", nu), interactive: true, session: nu}},
		{"fresh print", Request{Args: s("-p", "hi"), NewSessionID: nu, StdinTTY: true},
			want{args: s("-p", "hi", "--session-id", nu), session: nu}},
		{"linked resumes", Request{Args: s("-p", "hi"), LinkedSessionID: id, NewSessionID: nu},
			want{args: s("-p", "hi", "--resume", id), session: id, resume: true}},
		{"fresh ignores the link", Request{Args: s("-p", "x"), LinkedSessionID: id, NewSessionID: nu, Fresh: true},
			want{args: s("-p", "x", "--session-id", nu), session: nu}},
		{"user -s is an explicit fresh id", Request{Args: s("-s", id), LinkedSessionID: "l", StdinTTY: true},
			want{args: s("-s", id), interactive: true, explicit: true, explicitID: id, session: id}},
		{"user -r id resumes it", Request{Args: s("-r", id, "-p", "x")},
			want{args: s("-r", id, "-p", "x"), explicit: true, explicitID: id, session: id, resume: true}},
		{"bare -r: newest, found after", Request{Args: s("-r"), StdinTTY: true},
			want{args: s("-r"), interactive: true, explicit: true}},
		{"-r title", Request{Args: s("--resume", "my work")},
			want{args: s("--resume", "my work"), explicit: true}},
		{"-c", Request{Args: s("-c", "-p", "x"), LinkedSessionID: id},
			want{args: s("-c", "-p", "x"), explicit: true}},
		{"fork of an id: new session", Request{Args: s("-r", id, "--fork-session")},
			want{args: s("-r", id, "--fork-session"), explicit: true, explicitID: id}},
		{"yolo maps to --always-approve", Request{Args: s("-p", "x"), Yolo: true},
			want{args: s("-p", "x", "--always-approve")}},
		{"native --yolo token becomes --always-approve", Request{Args: s("--yolo", "-p", "x")},
			want{args: s("-p", "x", "--always-approve")}},
		{"--dangerously-skip-permissions not doubled", Request{Args: s("--dangerously-skip-permissions"), Yolo: true},
			want{args: s("--dangerously-skip-permissions")}},
		{"--version", Request{Args: s("--version")}, want{args: s("--version"), mode: ModePassthrough}},
		{"-V", Request{Args: s("-V")}, want{args: s("-V"), mode: ModePassthrough}},
		{"mcp list", Request{Args: s("mcp", "list"), Yolo: true}, want{args: s("mcp", "list"), mode: ModePassthrough}},
		{"utility behind -m", Request{Args: s("-m", "grok-4", "sessions")}, want{args: s("-m", "grok-4", "sessions"), mode: ModePassthrough}},
		{"prompt word after -p is no utility", Request{Args: s("-p", "models")}, want{args: s("-p", "models")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := planWith(grok{}, tt.r)
			if err != nil {
				t.Fatal(err)
			}
			got := want{p.Args, p.Mode, p.Interactive, p.ExplicitSelector, p.ExplicitSessionID, p.SessionID, p.Resume}
			if got.args == nil {
				got.args = []string{}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Plan(%+v)\n got %+v\nwant %+v", tt.r, got, tt.want)
			}
		})
	}
}

func TestGrokFreshWithSelector(t *testing.T) {
	for _, args := range [][]string{{"-s", "x"}, {"-r"}, {"--continue"}, {"--load", "x"}} {
		if _, err := planWith(grok{}, Request{Args: args, Fresh: true}); !errors.Is(err, ErrFreshWithSelector) {
			t.Errorf("Plan(%q, fresh) error = %v, want ErrFreshWithSelector", args, err)
		}
	}
}

func TestGrokDelivery(t *testing.T) {
	for _, tt := range []struct {
		name   string
		args   []string
		packet string
		want   []string
		notice bool
	}{
		{"fresh", []string{"-p", "x"}, "PKT", []string{"-p", "x", "--session-id", "n", "--rules", "PKT"}, false},
		{"user rules kept, no packet", []string{"--rules", "mine"}, "PKT", []string{"--rules", "mine", "--session-id", "n"}, true},
		{"alias too", []string{"--append-system-prompt=mine"}, "PKT", []string{"--append-system-prompt=mine", "--session-id", "n"}, true},
		{"too long for argv", nil, strings.Repeat("x", grokMaxArg+1), []string{"--session-id", "n"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := planWith(grok{}, Request{Args: tt.args, Packet: tt.packet, NewSessionID: "n"})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Args, tt.want) || (len(p.Notices) > 0) != tt.notice ||
				(p.Delivery == DeliveryOnStart) == tt.notice {
				t.Errorf("args %q notices %q delivery %v", p.Args, p.Notices, p.Delivery)
			}
		})
	}
}

// TestGrokRefusesGrokCLI: with grok-cli's grok.db in GROK_HOME, the
// version line decides which CLI `grok` is.
func TestGrokRefusesGrokCLI(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "grok.db"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	in, _ := grok{}.Parse([]string{"-p", "x"}, false)
	for _, tt := range []struct {
		out  string
		fail bool
	}{{"grok 1.0.6 (abc1234)\n", false}, {"1.1.7\n", true}, {"", true}} {
		g := grok{version: func(string) (string, error) { return tt.out, nil }}
		d := Decision{Executable: "/bin/grok", Getenv: func(k string) string { return map[string]string{"GROK_HOME": home}[k] }}
		_, err := g.Build(in, d)
		if (err != nil) != tt.fail || (err != nil && !strings.Contains(err.Error(), "not xAI's Grok Build")) {
			t.Errorf("version %q: err %v", tt.out, err)
		}
	}
	// Without grok.db nothing is probed.
	g := grok{version: func(string) (string, error) { t.Error("probed"); return "", nil }}
	d := Decision{Executable: "/bin/grok", Getenv: func(k string) string { return map[string]string{"GROK_HOME": t.TempDir()}[k] }}
	if _, err := g.Build(in, d); err != nil {
		t.Error(err)
	}
}
