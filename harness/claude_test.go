package harness

import (
	"errors"
	"reflect"
	"testing"
)

// planCase is one row of a launch-plan table: the request and the parts of
// the plan that row is about.
type planCase struct {
	name     string
	req      Request
	args     []string
	mode     Mode
	interact bool
	explicit bool
	explID   string
	session  string
	resume   bool
	err      error
}

func runPlanCases(t *testing.T, h Planner, tests []planCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := planWith(h, tt.req)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if err != nil {
				return
			}
			if !reflect.DeepEqual(p.Args, tt.args) && !(len(p.Args) == 0 && len(tt.args) == 0) {
				t.Errorf("Args = %q, want %q", p.Args, tt.args)
			}
			got := []any{p.Mode, p.Interactive, p.ExplicitSelector, p.ExplicitSessionID, p.SessionID, p.Resume}
			want := []any{tt.mode, tt.interact, tt.explicit, tt.explID, tt.session, tt.resume}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("mode, interactive, explicit, explicitID, sessionID, resume = %v, want %v", got, want)
			}
			if tt.req.Packet == "" && (p.Delivery != DeliveryNone || len(p.Files) > 0 || len(p.Env) > 0) {
				t.Errorf("no packet but delivery %v, files %v, env %v", p.Delivery, p.Files, p.Env)
			}
		})
	}
}

func TestClaude_Plan(t *testing.T) {
	tty := func(args ...string) Request { return Request{Args: args, NewSessionID: "N", StdinTTY: true} }
	linked := func(args ...string) Request { r := tty(args...); r.LinkedSessionID = "L"; return r }
	S, P := ModeSession, ModePassthrough
	tests := []planCase{
		{name: "FreshNoArgs", req: tty(), args: []string{"--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "ResumeLinked", req: linked(), args: []string{"--resume", "L"}, mode: S, interact: true, session: "L", resume: true},
		{name: "FreshIgnoresLinked", req: with(linked(), func(r *Request) { r.Fresh = true }), args: []string{"--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "UserArgsKeptInOrder", req: linked("--model", "opus", "fix it"), args: []string{"--model", "opus", "fix it", "--resume", "L"}, mode: S, interact: true, session: "L", resume: true},
		{name: "InsertBeforeDoubleDash", req: tty("--model", "x", "--", "--help"), args: []string{"--model", "x", "--session-id", "N", "--", "--help"}, mode: S, interact: true, session: "N"},
		{name: "ProbeWithoutNewID", req: Request{Args: []string{"hi"}, StdinTTY: true}, args: []string{"hi"}, mode: S, interact: true},
		// Native selectors suppress injection.
		{name: "ResumeID", req: linked("--resume", "X"), args: []string{"--resume", "X"}, mode: S, interact: true, explicit: true, explID: "X", session: "X", resume: true},
		{name: "ResumeEquals", req: linked("--resume=X", "hi"), args: []string{"--resume=X", "hi"}, mode: S, interact: true, explicit: true, explID: "X", session: "X", resume: true},
		{name: "ShortResume", req: tty("-r", "X"), args: []string{"-r", "X"}, mode: S, interact: true, explicit: true, explID: "X", session: "X", resume: true},
		{name: "ResumePicker", req: tty("--resume", "--model", "x"), args: []string{"--resume", "--model", "x"}, mode: S, interact: true, explicit: true},
		{name: "Continue", req: linked("--continue"), args: []string{"--continue"}, mode: S, interact: true, explicit: true},
		{name: "ShortContinue", req: linked("-c", "go on"), args: []string{"-c", "go on"}, mode: S, interact: true, explicit: true},
		{name: "SessionID", req: linked("--session-id", "U"), args: []string{"--session-id", "U"}, mode: S, interact: true, explicit: true, explID: "U", session: "U"},
		{name: "SessionIDEquals", req: tty("--session-id=U"), args: []string{"--session-id=U"}, mode: S, interact: true, explicit: true, explID: "U", session: "U"},
		{name: "ForkUnknownID", req: tty("--resume", "X", "--fork-session"), args: []string{"--resume", "X", "--fork-session"}, mode: S, interact: true, explicit: true, explID: "X"},
		{name: "ForkIntoSessionID", req: tty("-r", "X", "--fork-session", "--session-id", "U"), args: []string{"-r", "X", "--fork-session", "--session-id", "U"}, mode: S, interact: true, explicit: true, explID: "X", session: "U"},
		{name: "SelectorAfterDoubleDash", req: tty("--", "-c"), args: []string{"--session-id", "N", "--", "-c"}, mode: S, interact: true, session: "N"},
		{name: "FreshWithSelector", req: with(tty("--resume", "X"), func(r *Request) { r.Fresh = true }), err: ErrFreshWithSelector},
		{name: "FreshWithContinue", req: with(tty("-c"), func(r *Request) { r.Fresh = true }), err: ErrFreshWithSelector},
		// Yolo.
		{name: "YoloWrapper", req: with(tty(), func(r *Request) { r.Yolo = true }), args: []string{"--session-id", "N", claudeYolo}, mode: S, interact: true, session: "N"},
		{name: "YoloToken", req: tty("--yolo", "hi"), args: []string{"hi", "--session-id", "N", claudeYolo}, mode: S, interact: true, session: "N"},
		{name: "YoloNotDuplicated", req: with(tty(claudeYolo, "--yolo"), func(r *Request) { r.Yolo = true }), args: []string{claudeYolo, "--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "YoloAfterDoubleDashIsPrompt", req: tty("--", "--yolo"), args: []string{"--session-id", "N", "--", "--yolo"}, mode: S, interact: true, session: "N"},
		// Noninteractive.
		{name: "Print", req: tty("-p", "hi"), args: []string{"-p", "hi", "--session-id", "N"}, mode: S, session: "N"},
		{name: "PrintLong", req: linked("--print", "hi"), args: []string{"--print", "hi", "--resume", "L"}, mode: S, session: "L", resume: true},
		{name: "RedirectedStdin", req: Request{Args: []string{"hi"}, NewSessionID: "N"}, args: []string{"hi", "--session-id", "N"}, mode: S, session: "N"},
		// Passthrough.
		{name: "Help", req: linked("--help"), args: []string{"--help"}, mode: P, interact: true},
		{name: "ShortHelp", req: linked("-h"), args: []string{"-h"}, mode: P, interact: true},
		{name: "Version", req: linked("--version"), args: []string{"--version"}, mode: P, interact: true},
		{name: "ShortVersion", req: tty("-v"), args: []string{"-v"}, mode: P, interact: true},
		{name: "NoPersistence", req: tty("-p", "hi", "--no-session-persistence"), args: []string{"-p", "hi", "--no-session-persistence"}, mode: P},
		{name: "UtilityDropsYolo", req: with(tty("mcp", "list", "--yolo"), func(r *Request) { r.Yolo = true; r.Packet = "P" }), args: []string{"mcp", "list"}, mode: P, interact: true},
		{name: "UtilityWithFresh", req: with(tty("doctor"), func(r *Request) { r.Fresh = true }), args: []string{"doctor"}, mode: P, interact: true},
		{name: "UtilityNotFirst", req: tty("fix", "doctor"), args: []string{"fix", "doctor", "--session-id", "N"}, mode: S, interact: true, session: "N"},
	}
	for _, u := range []string{"agents", "auth", "auto-mode", "doctor", "install", "mcp", "plugin", "plugins", "project", "setup-token", "ultrareview", "update", "upgrade"} {
		tests = append(tests, planCase{name: "Utility_" + u, req: linked(u, "x"), args: []string{u, "x"}, mode: P, interact: true})
	}
	runPlanCases(t, claude{}, tests)
}
