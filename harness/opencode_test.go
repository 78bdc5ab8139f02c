package harness

import (
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestOpenCodePlan(t *testing.T) {
	type want struct {
		args        []string
		mode        Mode
		interactive bool
		explicit    bool
		explicitID  string
		session     string
		resume      bool
	}
	s := func(a ...string) []string { return append([]string{}, a...) }
	tests := []struct {
		name string
		r    Request
		want want
	}{
		{"fresh TUI", Request{StdinTTY: true},
			want{args: s(), interactive: true}},
		{"fresh TUI in a project dir", Request{Args: s("."), StdinTTY: true},
			want{args: s("."), interactive: true}},
		{"fresh run is print mode", Request{Args: s("run", "hello"), StdinTTY: true},
			want{args: s("run", "hello")}},
		{"run -i is interactive", Request{Args: s("run", "-i", "hello"), StdinTTY: true},
			want{args: s("run", "-i", "hello"), interactive: true}},
		{"TUI without a terminal", Request{Args: s()},
			want{args: s()}},
		{"linked TUI resumes at the front", Request{Args: s("--model", "m/x"), LinkedSessionID: "ses_l", StdinTTY: true},
			want{args: s("--session", "ses_l", "--model", "m/x"), interactive: true, session: "ses_l", resume: true}},
		{"linked run resumes right after run", Request{Args: s("--print-logs", "run", "more"), LinkedSessionID: "ses_l"},
			want{args: s("--print-logs", "run", "--session", "ses_l", "more"), session: "ses_l", resume: true}},
		{"run behind a value option", Request{Args: s("-m", "run", "run", "x"), LinkedSessionID: "ses_l"},
			want{args: s("-m", "run", "run", "--session", "ses_l", "x"), session: "ses_l", resume: true}},
		{"fresh ignores the link", Request{Args: s("run", "x"), LinkedSessionID: "ses_l", Fresh: true},
			want{args: s("run", "x")}},
		{"native -s resumes that id", Request{Args: s("-s", "ses_n"), LinkedSessionID: "ses_l", StdinTTY: true},
			want{args: s("-s", "ses_n"), interactive: true, explicit: true, explicitID: "ses_n", session: "ses_n", resume: true}},
		{"native run --session=id", Request{Args: s("run", "--session=ses_n", "x")},
			want{args: s("run", "--session=ses_n", "x"), explicit: true, explicitID: "ses_n", session: "ses_n", resume: true}},
		{"last --session wins", Request{Args: s("-s", "ses_a", "--session", "ses_b")},
			want{args: s("-s", "ses_a", "--session", "ses_b"), explicit: true, explicitID: "ses_b", session: "ses_b", resume: true}},
		{"--continue", Request{Args: s("run", "-c", "x"), LinkedSessionID: "ses_l"},
			want{args: s("run", "-c", "x"), explicit: true}},
		{"--fork of an id is a new session", Request{Args: s("-s", "ses_n", "--fork")},
			want{args: s("-s", "ses_n", "--fork"), explicit: true, explicitID: "ses_n"}},
		{"wrapper yolo maps to --auto", Request{Args: s("run", "x"), Yolo: true},
			want{args: s("run", "x", "--auto")}},
		{"native --yolo token too, before --", Request{Args: s("run", "--yolo", "--", "--yolo")},
			want{args: s("run", "--auto", "--", "--yolo")}},
		{"--auto not doubled", Request{Args: s("--auto"), Yolo: true},
			want{args: s("--auto")}},
		{"session list is passthrough", Request{Args: s("session", "list"), LinkedSessionID: "ses_l", Yolo: true},
			want{args: s("session", "list"), mode: ModePassthrough}},
		{"export behind a flag", Request{Args: s("--log-level", "WARN", "export", "ses_x")},
			want{args: s("--log-level", "WARN", "export", "ses_x"), mode: ModePassthrough}},
		{"auth alias", Request{Args: s("auth", "login")},
			want{args: s("auth", "login"), mode: ModePassthrough}},
		{"models, upgrade, serve", Request{Args: s("models")},
			want{args: s("models"), mode: ModePassthrough}},
		{"--version", Request{Args: s("--version"), LinkedSessionID: "ses_l"},
			want{args: s("--version"), mode: ModePassthrough}},
		{"run --help", Request{Args: s("run", "-h")},
			want{args: s("run", "-h"), mode: ModePassthrough}},
		{"a prompt word that is a utility name", Request{Args: s("run", "export", "this")},
			want{args: s("run", "export", "this")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := planWith(opencode{}, tt.r)
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

func TestOpenCodeFreshWithSelector(t *testing.T) {
	for _, args := range [][]string{{"-s", "ses_x"}, {"run", "--continue"}, {"--fork", "-c"}} {
		if _, err := planWith(opencode{}, Request{Args: args, Fresh: true}); !errors.Is(err, ErrFreshWithSelector) {
			t.Errorf("Plan(%q, fresh) error = %v, want ErrFreshWithSelector", args, err)
		}
	}
}

func TestOpenCodeDelivery(t *testing.T) {
	run := filepath.Join("/run", "r1")
	packet := filepath.Join(run, opencodePacketFile)
	for _, tt := range []struct {
		name, user, wantEnv string
		notice              bool
	}{
		{"no user value", "", `{"instructions":["` + packet + `"]}`, false},
		{"user value kept", `{"model":"a/b","instructions":["/u.md"]}`, `{"instructions":["/u.md","` + packet + `"],"model":"a/b"}`, false},
		{"user value not JSON", `{model: 1}`, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, args := range [][]string{{"run", "x"}, {}} {
				p, err := planWith(opencode{}, Request{Args: args, Packet: "PKT", RunDir: run, LinkedSessionID: "ses_l",
					Env: map[string]string{EnvOpenCodeConfigContent: tt.user}})
				if err != nil {
					t.Fatal(err)
				}
				if tt.notice {
					if len(p.Notices) != 1 || p.Delivery != DeliveryNone || p.Env != nil || p.Files != nil {
						t.Fatalf("bad user value: %+v; want one notice and nothing delivered", p)
					}
					return
				}
				if p.Delivery != DeliveryOnStart || p.Env[EnvOpenCodeConfigContent] != tt.wantEnv {
					t.Errorf("delivery %v env %q, want on-start %q", p.Delivery, p.Env[EnvOpenCodeConfigContent], tt.wantEnv)
				}
				if want := []File{{Path: packet, Content: "PKT"}}; !reflect.DeepEqual(p.Files, want) {
					t.Errorf("files = %+v, want %+v", p.Files, want)
				}
			}
		})
	}
	if p, _ := planWith(opencode{}, Request{Args: []string{"export"}, Packet: "PKT", RunDir: run}); p.Delivery != DeliveryNone || p.Env != nil {
		t.Errorf("passthrough delivered a packet: %+v", p)
	}
}

func TestOpenCodeConfigContent(t *testing.T) {
	const pk = "/run/p.md"
	for _, tt := range []struct {
		name, user, want, errPart string
	}{
		{"unset", "", `{"instructions":["/run/p.md"]}`, ""},
		{"blank", "  \n", `{"instructions":["/run/p.md"]}`, ""},
		{"other members kept", `{"model": "m/x", "provider": {"a": {"b": [1, 2]}}}`,
			`{"instructions":["/run/p.md"],"model":"m/x","provider":{"a":{"b":[1,2]}}}`, ""},
		{"appended after the user's", `{"instructions":["a.md","b.md"]}`, `{"instructions":["a.md","b.md","/run/p.md"]}`, ""},
		{"not added twice", `{"instructions":["/run/p.md"]}`, `{"instructions":["/run/p.md"]}`, ""},
		{"null instructions", `{"instructions":null}`, `{"instructions":["/run/p.md"]}`, ""},
		{"empty object", `{}`, `{"instructions":["/run/p.md"]}`, ""},
		{"array is not an object", `[1]`, "", "not a JSON object"},
		{"null is not an object", `null`, "", "not a JSON object"},
		{"JSONC comment", `{"a":1 // c` + "\n}", "", "not a JSON object"},
		{"trailing garbage", `{} x`, "", "not a JSON object"},
		{"instructions a string", `{"instructions":"a.md"}`, "", "not an array of strings"},
		{"instructions of numbers", `{"instructions":[1]}`, "", "not an array of strings"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := OpenCodeConfigContent(tt.user, pk)
			if tt.errPart != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errPart) || !strings.Contains(err.Error(), EnvOpenCodeConfigContent) {
					t.Fatalf("error = %v, want one naming %s and %q", err, EnvOpenCodeConfigContent, tt.errPart)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("OpenCodeConfigContent(%q) = %s, %v; want %s", tt.user, got, err, tt.want)
			}
		})
	}
}

// TestOpenCodeConformance checks OpenCode's own flags are never doubled and
// the user's argv survives as a subsequence (TestConformance covers the rest).
func TestOpenCodeConformance(t *testing.T) {
	h := opencode{}
	env := map[string]string{EnvOpenCodeConfigContent: `{"instructions":["u.md"]}`}
	requests := []Request{
		{Args: []string{"fix", "--yolo"}, StdinTTY: true},
		{Args: []string{"--model", "x", "hello"}, LinkedSessionID: "l", Yolo: true},
		{Args: []string{"run", "hi"}, Packet: "P", RunDir: "/run", LinkedSessionID: "l", Yolo: true, Env: env},
		{Args: []string{"run", "--auto", "-s", "x", "hi"}, Packet: "P", RunDir: "/run", Yolo: true, Env: env},
	}
	for _, r := range requests {
		before := slices.Clone(r.Args)
		p1, err1 := planWith(h, r)
		p2, err2 := planWith(h, r)
		if !reflect.DeepEqual(p1, p2) || (err1 == nil) != (err2 == nil) {
			t.Errorf("Plan not deterministic for %+v", r)
		}
		if !reflect.DeepEqual(r.Args, before) {
			t.Errorf("Plan changed the request's Args to %q", r.Args)
		}
		for _, flag := range []string{opencodeYolo, opencodeSessionOpt} {
			if n := countOf(p1.Args, flag); n > 1 {
				t.Errorf("%s appears %d times in %q", flag, n, p1.Args)
			}
		}
		checkSubsequence(t, "opencode", before, p1.Args)
	}
}
