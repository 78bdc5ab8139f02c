package harness

import (
	"reflect"
	"testing"
)

func TestQwen_Plan(t *testing.T) {
	tty := func(args ...string) Request { return Request{Args: args, NewSessionID: "N", StdinTTY: true} }
	linked := func(args ...string) Request { r := tty(args...); r.LinkedSessionID = "L"; return r }
	yolo := func(r Request) Request { r.Yolo = true; return r }
	S, P := ModeSession, ModePassthrough
	tests := []planCase{
		{name: "FreshNoArgs", req: tty(), args: []string{"--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "FreshPositionalPrompt", req: tty("fix it"), args: []string{"fix it", "--session-id", "N"}, mode: S, session: "N"},
		{name: "FreshDashP", req: tty("-p", "fix it"), args: []string{"-p", "fix it", "--session-id", "N"}, mode: S, session: "N"},
		{name: "PromptInteractive", req: tty("-i", "fix it"), args: []string{"-i", "fix it", "--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "FreshBeforeDoubleDash", req: tty("--", "-x"), args: []string{"--session-id", "N", "--", "-x"}, mode: S, session: "N"},
		{name: "ResumeLinked", req: linked("hi"), args: []string{"hi", "--resume", "L"}, mode: S, session: "L", resume: true},
		{name: "ResumeLinkedTUI", req: linked(), args: []string{"--resume", "L"}, mode: S, interact: true, session: "L", resume: true},
		{name: "FreshIgnoresLinked", req: with(linked("hi"), func(r *Request) { r.Fresh = true }), args: []string{"hi", "--session-id", "N"}, mode: S, session: "N"},
		{name: "RedirectedStdin", req: Request{Args: nil, NewSessionID: "N"}, args: []string{"--session-id", "N"}, mode: S, session: "N"},
		{name: "OptionValueIsNoPrompt", req: tty("--model", "m", "--allowed-tools", "a", "b"), args: []string{"--model", "m", "--allowed-tools", "a", "b", "--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "BooleanValueIsNoPrompt", req: tty("--debug", "true"), args: []string{"--debug", "true", "--session-id", "N"}, mode: S, interact: true, session: "N"},
		// Native selectors: nothing injected.
		{name: "SessionID", req: linked("--session-id", "X"), args: []string{"--session-id", "X"}, mode: S, interact: true, explicit: true, explID: "X", session: "X"},
		{name: "ResumeID", req: linked("-r", "X", "q"), args: []string{"-r", "X", "q"}, mode: S, explicit: true, explID: "X", session: "X", resume: true},
		{name: "ResumeEquals", req: linked("--resume=X"), args: []string{"--resume=X"}, mode: S, interact: true, explicit: true, explID: "X", session: "X", resume: true},
		{name: "ResumePicker", req: linked("-r"), args: []string{"-r"}, mode: S, interact: true, explicit: true},
		{name: "Continue", req: linked("-c"), args: []string{"-c"}, mode: S, interact: true, explicit: true},
		{name: "ContinueFork", req: linked("--continue", "--fork-session", "q"), args: []string{"--continue", "--fork-session", "q"}, mode: S, explicit: true},
		{name: "SessionWordInPrompt", req: tty("--", "--resume"), args: []string{"--session-id", "N", "--", "--resume"}, mode: S, session: "N"},
		{name: "FreshWithContinue", req: with(tty("-c"), func(r *Request) { r.Fresh = true }), err: ErrFreshWithSelector},
		// --yolo: --approval-mode=yolo unless the user chose a mode.
		{name: "YoloWrapper", req: yolo(linked("q")), args: []string{"q", "--resume", "L", qwenYolo}, mode: S, session: "L", resume: true},
		{name: "YoloToken", req: tty("--yolo", "q"), args: []string{"q", "--session-id", "N", qwenYolo}, mode: S, session: "N"},
		{name: "YoloNativeShort", req: yolo(tty("-y", "q")), args: []string{"-y", "q", "--session-id", "N"}, mode: S, session: "N"},
		{name: "YoloModeGiven", req: yolo(tty("--approval-mode", "yolo", "q")), args: []string{"--approval-mode", "yolo", "q", "--session-id", "N"}, mode: S, session: "N"},
		// Passthrough.
		{name: "Help", req: linked("--help"), args: []string{"--help"}, mode: P, interact: true},
		{name: "Version", req: linked("-v"), args: []string{"-v"}, mode: P, interact: true},
		{name: "ListExtensions", req: linked("-l"), args: []string{"-l"}, mode: P, interact: true},
		{name: "ACP", req: linked("--acp"), args: []string{"--acp"}, mode: P, interact: true},
		{name: "NoRecording", req: linked("--chat-recording", "false", "q"), args: []string{"--chat-recording", "false", "q"}, mode: P},
		{name: "NoRecordingEquals", req: linked("--chat-recording=false"), args: []string{"--chat-recording=false"}, mode: P, interact: true},
		{name: "UtilityAfterOption", req: linked("--debug", "mcp", "list"), args: []string{"--debug", "mcp", "list"}, mode: P, interact: true},
		{name: "UtilityDropsYolo", req: with(linked("mcp", "list", "--yolo"), func(r *Request) { r.Packet = "P" }), args: []string{"mcp", "list"}, mode: P, interact: true},
		{name: "OptionValueNotUtility", req: linked("--model", "update", "hi"), args: []string{"--model", "update", "hi", "--resume", "L"}, mode: S, session: "L", resume: true},
		{name: "UtilityWordInPrompt", req: linked("update the deps"), args: []string{"update the deps", "--resume", "L"}, mode: S, session: "L", resume: true},
	}
	for u := range qwenUtilities {
		tests = append(tests, planCase{name: "Utility_" + u, req: linked(u), args: []string{u}, mode: P, interact: true})
	}
	runPlanCases(t, qwen{}, tests)
}

// TestQwen_Delivery: the packet is --append-system-prompt text, fresh and
// resumed; a user's own value is extended, never repeated (Qwen 0.24.4
// fails to start on a repeated --append-system-prompt).
func TestQwen_Delivery(t *testing.T) {
	for _, tt := range []struct {
		name    string
		req     Request
		args    []string
		notices int
	}{
		{"Fresh", Request{Args: []string{"q"}, NewSessionID: "N", Packet: "PKT"},
			[]string{"q", "--session-id", "N", qwenAppendOpt, "PKT"}, 0},
		{"Resumed", Request{Args: []string{"q"}, NewSessionID: "N", LinkedSessionID: "L", Packet: "PKT"},
			[]string{"q", "--resume", "L", qwenAppendOpt, "PKT"}, 0},
		{"Selector", Request{Args: []string{"-c", "q"}, NewSessionID: "N", Packet: "PKT"},
			[]string{"-c", "q", qwenAppendOpt, "PKT"}, 0},
		{"UserAppendMerged", Request{Args: []string{qwenAppendOpt, "mine", "q"}, NewSessionID: "N", Packet: "PKT"},
			[]string{qwenAppendOpt, "mine\n\nPKT", "q", "--session-id", "N"}, 1},
		{"UserAppendEquals", Request{Args: []string{qwenAppendOpt + "=mine", "q"}, NewSessionID: "N", Packet: "PKT"},
			[]string{qwenAppendOpt + "=mine\n\nPKT", "q", "--session-id", "N"}, 1},
		{"UserAppendLastWins", Request{Args: []string{"q", qwenAppendOpt}, NewSessionID: "N", Packet: "PKT"},
			[]string{"q", qwenAppendOpt, "PKT", "--session-id", "N"}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := planWith(qwen{}, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Args, tt.args) {
				t.Errorf("Args = %q, want %q", p.Args, tt.args)
			}
			if p.Delivery != DeliveryOnStart || len(p.Files) != 0 || len(p.Notices) != tt.notices {
				t.Errorf("delivery %v, files %v, notices %q", p.Delivery, p.Files, p.Notices)
			}
		})
	}
}

func TestQwen_YoloModeNotice(t *testing.T) {
	p, err := planWith(qwen{}, Request{Args: []string{"--approval-mode", "plan", "q"}, Yolo: true})
	if err != nil || len(p.Notices) != 1 || p.Notices[0] != qwenYoloModeNotice {
		t.Errorf("notices %v, %v; want the approval-mode notice", p.Notices, err)
	}
	if hasFlag(p.Args, qwenYolo) {
		t.Errorf("args %q: yolo added beside --approval-mode", p.Args)
	}
}
