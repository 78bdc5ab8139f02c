package harness

import (
	"path/filepath"
	"reflect"
	"testing"
)

const copilotID = "0cb916db-26aa-40f2-86b5-1ba81b225fd2"

func TestCopilot_Plan(t *testing.T) {
	tty := func(args ...string) Request { return Request{Args: args, NewSessionID: "N", StdinTTY: true} }
	linked := func(args ...string) Request { r := tty(args...); r.LinkedSessionID = "L"; return r }
	S, P := ModeSession, ModePassthrough
	tests := []planCase{
		{name: "FreshNoArgs", req: tty(), args: []string{"--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "FreshPrint", req: tty("-p", "fix it"), args: []string{"-p", "fix it", "--session-id", "N"}, mode: S, session: "N"},
		{name: "FreshBeforeDoubleDash", req: tty("-p", "x", "--", "-y"), args: []string{"-p", "x", "--session-id", "N", "--", "-y"}, mode: S, session: "N"},
		{name: "ResumeLinked", req: linked("-p", "hi"), args: []string{"-p", "hi", "--resume=L"}, mode: S, session: "L", resume: true},
		{name: "ResumeLinkedTUI", req: linked(), args: []string{"--resume=L"}, mode: S, interact: true, session: "L", resume: true},
		{name: "InteractivePrompt", req: linked("-i", "go"), args: []string{"-i", "go", "--resume=L"}, mode: S, interact: true, session: "L", resume: true},
		{name: "FreshIgnoresLinked", req: with(linked("-p", "hi"), func(r *Request) { r.Fresh = true }), args: []string{"-p", "hi", "--session-id", "N"}, mode: S, session: "N"},
		{name: "RedirectedStdin", req: Request{Args: []string{"--model", "m"}, NewSessionID: "N"}, args: []string{"--model", "m", "--session-id", "N"}, mode: S, session: "N"},
		// Native selectors: nothing injected.
		{name: "SessionID", req: linked("--session-id", copilotID), args: []string{"--session-id", copilotID}, mode: S, interact: true, explicit: true, explID: copilotID, session: copilotID},
		{name: "ResumeEquals", req: linked("--resume="+copilotID, "-p", "q"), args: []string{"--resume=" + copilotID, "-p", "q"}, mode: S, explicit: true, explID: copilotID, session: copilotID, resume: true},
		{name: "ResumeShort", req: linked("-r", copilotID), args: []string{"-r", copilotID}, mode: S, interact: true, explicit: true, explID: copilotID, session: copilotID, resume: true},
		{name: "ResumeName", req: linked("--resume=my feature"), args: []string{"--resume=my feature"}, mode: S, interact: true, explicit: true},
		{name: "ResumePrefix", req: linked("--resume", "0cb916d"), args: []string{"--resume", "0cb916d"}, mode: S, interact: true, explicit: true},
		{name: "ResumePicker", req: linked("--resume", "--model", "m"), args: []string{"--resume", "--model", "m"}, mode: S, interact: true, explicit: true},
		{name: "Continue", req: linked("--continue"), args: []string{"--continue"}, mode: S, interact: true, explicit: true},
		{name: "SelectorAfterDoubleDash", req: tty("-p", "x", "--", "--continue"), args: []string{"-p", "x", "--session-id", "N", "--", "--continue"}, mode: S, session: "N"},
		{name: "FreshWithContinue", req: with(tty("--continue"), func(r *Request) { r.Fresh = true }), err: ErrFreshWithSelector},
		{name: "FreshWithSessionID", req: with(tty("--session-id", copilotID), func(r *Request) { r.Fresh = true }), err: ErrFreshWithSelector},
		// Yolo: --allow-all, once; the wrapper token never reaches Copilot.
		{name: "YoloWrapper", req: with(linked("-p", "q"), func(r *Request) { r.Yolo = true }), args: []string{"-p", "q", "--resume=L", copilotYolo}, mode: S, session: "L", resume: true},
		{name: "YoloToken", req: tty("--yolo", "-p", "q"), args: []string{"-p", "q", "--session-id", "N", copilotYolo}, mode: S, session: "N"},
		{name: "YoloNotDuplicated", req: tty("--yolo", copilotYolo, "-p", "q"), args: []string{copilotYolo, "-p", "q", "--session-id", "N"}, mode: S, session: "N"},
		{name: "YoloAfterDoubleDashIsPrompt", req: tty("-p", "x", "--", "--yolo"), args: []string{"-p", "x", "--session-id", "N", "--", "--yolo"}, mode: S, session: "N"},
		// Passthrough.
		{name: "Help", req: linked("--help"), args: []string{"--help"}, mode: P, interact: true},
		{name: "Version", req: linked("-v"), args: []string{"-v"}, mode: P, interact: true},
		{name: "ACP", req: linked("--acp"), args: []string{"--acp"}, mode: P, interact: true},
		{name: "Connect", req: linked("--connect", "abc"), args: []string{"--connect", "abc"}, mode: P, interact: true},
		{name: "UtilityAfterOption", req: linked("--model", "m", "mcp", "list"), args: []string{"--model", "m", "mcp", "list"}, mode: P, interact: true},
		{name: "UtilityDropsYolo", req: with(linked("mcp", "list", "--yolo"), func(r *Request) { r.Packet = "P" }), args: []string{"mcp", "list"}, mode: P, interact: true},
		{name: "OptionValueNotUtility", req: linked("--agent", "login", "-p", "hi"), args: []string{"--agent", "login", "-p", "hi", "--resume=L"}, mode: S, session: "L", resume: true},
		{name: "PromptNotUtility", req: linked("-p", "update the deps"), args: []string{"-p", "update the deps", "--resume=L"}, mode: S, session: "L", resume: true},
	}
	for u := range copilotUtilities {
		tests = append(tests, planCase{name: "Utility_" + u, req: linked(u), args: []string{u}, mode: P, interact: true})
	}
	runPlanCases(t, copilot{}, tests)
}

// TestCopilot_Delivery: the packet goes in <run>/*.instructions.md and the
// run dir is added to COPILOT_CUSTOM_INSTRUCTIONS_DIRS, after the user's own
// directories, fresh, resumed and with a native selector.
func TestCopilot_Delivery(t *testing.T) {
	file := File{Path: filepath.Join("/run", copilotPacketName), Content: "PKT"}
	for _, tt := range []struct {
		name string
		req  Request
		args []string
		env  string
	}{
		{"Fresh", Request{Args: []string{"-p", "q"}, NewSessionID: "N"}, []string{"-p", "q", "--session-id", "N"}, "/run"},
		{"Resumed", Request{Args: []string{"-p", "q"}, LinkedSessionID: "L"}, []string{"-p", "q", "--resume=L"}, "/run"},
		{"Selector", Request{Args: []string{"--continue"}, NewSessionID: "N"}, []string{"--continue"}, "/run"},
		{"UserDirsKept", Request{Args: []string{"-p", "q"}, NewSessionID: "N", Env: map[string]string{copilotInstrEnv: "/mine,/theirs,"}},
			[]string{"-p", "q", "--session-id", "N"}, "/mine,/theirs,/run"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Packet, tt.req.RunDir = "PKT", "/run"
			p, err := planWith(copilot{}, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Args, tt.args) || p.Env[copilotInstrEnv] != tt.env {
				t.Errorf("args %q env %q; want %q, %q", p.Args, p.Env[copilotInstrEnv], tt.args, tt.env)
			}
			if !reflect.DeepEqual(p.Files, []File{file}) || p.Delivery != DeliveryOnStart {
				t.Errorf("files %v, delivery %v", p.Files, p.Delivery)
			}
		})
	}
}

// TestCopilot_NoCustomInstructions: with --no-custom-instructions the
// instructions route is off, so nothing is planned and one notice says
// where the history is.
func TestCopilot_NoCustomInstructions(t *testing.T) {
	p, err := planWith(copilot{}, Request{Args: []string{copilotNoInstrOpt, "-p", "q"}, NewSessionID: "N", Packet: "PKT", RunDir: "/run"})
	if err != nil || p.Delivery != DeliveryNone || len(p.Files) != 0 || len(p.Env) != 0 || len(p.Notices) != 1 {
		t.Errorf("plan %+v, %v; want no delivery and one notice", p, err)
	}
}
