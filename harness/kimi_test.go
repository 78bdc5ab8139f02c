package harness

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestKimi_Plan(t *testing.T) {
	tty := func(args ...string) Request { return Request{Args: args, NewSessionID: "N", StdinTTY: true} }
	linked := func(args ...string) Request { r := tty(args...); r.LinkedSessionID = "L"; return r }
	S, P := ModeSession, ModePassthrough
	tests := []planCase{
		// Kimi makes the id: a fresh session is found after the run.
		{name: "FreshNoArgs", req: tty(), args: nil, mode: S, interact: true},
		{name: "FreshPrint", req: tty("-p", "fix it"), args: []string{"-p", "fix it"}, mode: S},
		{name: "ResumeLinked", req: linked("-p", "hi"), args: []string{"-p", "hi", "-S", "L"}, mode: S, session: "L", resume: true},
		{name: "ResumeLinkedTUI", req: linked(), args: []string{"-S", "L"}, mode: S, interact: true, session: "L", resume: true},
		{name: "ResumeBeforeDoubleDash", req: linked("-m", "x", "--", "-c"), args: []string{"-m", "x", "-S", "L", "--", "-c"}, mode: S, interact: true, session: "L", resume: true},
		{name: "FreshIgnoresLinked", req: with(linked("-p", "hi"), func(r *Request) { r.Fresh = true }), args: []string{"-p", "hi"}, mode: S},
		// Native selectors: nothing injected.
		{name: "SessionShort", req: linked("-S", "session_X"), args: []string{"-S", "session_X"}, mode: S, interact: true, explicit: true, explID: "session_X", session: "session_X", resume: true},
		{name: "SessionLong", req: linked("--session=session_X", "-p", "q"), args: []string{"--session=session_X", "-p", "q"}, mode: S, explicit: true, explID: "session_X", session: "session_X", resume: true},
		{name: "HiddenResume", req: linked("-r", "session_X"), args: []string{"-r", "session_X"}, mode: S, interact: true, explicit: true, explID: "session_X", session: "session_X", resume: true},
		{name: "SessionPicker", req: linked("-S", "-m", "x"), args: []string{"-S", "-m", "x"}, mode: S, interact: true, explicit: true},
		{name: "Continue", req: linked("-c"), args: []string{"-c"}, mode: S, interact: true, explicit: true},
		{name: "ContinueLong", req: linked("--continue", "-p", "q"), args: []string{"--continue", "-p", "q"}, mode: S, explicit: true},
		{name: "FreshWithContinue", req: with(tty("-c"), func(r *Request) { r.Fresh = true }), err: ErrFreshWithSelector},
		// Yolo: --auto in the TUI, nothing in print mode (Kimi refuses it there).
		{name: "YoloTUI", req: with(linked(), func(r *Request) { r.Yolo = true }), args: []string{"-S", "L", kimiAuto}, mode: S, interact: true, session: "L", resume: true},
		{name: "YoloToken", req: tty("--yolo"), args: []string{kimiAuto}, mode: S, interact: true},
		{name: "YoloPrint", req: tty("--yolo", "-p", "q"), args: []string{"-p", "q"}, mode: S},
		{name: "YoloNotDuplicated", req: tty("--yolo", kimiAuto), args: []string{kimiAuto}, mode: S, interact: true},
		{name: "YoloKeepsOwnAsk", req: tty("--yolo", "-y"), args: []string{"-y"}, mode: S, interact: true},
		// Passthrough.
		{name: "Help", req: linked("--help"), args: []string{"--help"}, mode: P, interact: true},
		{name: "Version", req: linked("-V"), args: []string{"-V"}, mode: P, interact: true},
		{name: "UtilityAfterOption", req: linked("-m", "x", "session", "list"), args: []string{"-m", "x", "session", "list"}, mode: P, interact: true},
		{name: "OptionValueNotUtility", req: linked("-m", "login", "-p", "hi"), args: []string{"-m", "login", "-p", "hi", "-S", "L"}, mode: S, session: "L", resume: true},
		{name: "PromptNotUtility", req: linked("-p", "export the data"), args: []string{"-p", "export the data", "-S", "L"}, mode: S, session: "L", resume: true},
	}
	for u := range kimiUtilities {
		tests = append(tests, planCase{name: "Utility_" + u, req: linked(u), args: []string{u}, mode: P, interact: true})
	}
	runPlanCases(t, kimi{}, tests)
}

// TestKimi_Delivery: a fresh session gets the packet in an agent file that
// keeps the default prompt (${base_prompt}); a resumed one, or one where
// the user chose an agent, gets no packet and one notice.
func TestKimi_Delivery(t *testing.T) {
	path := filepath.Join("/run", kimiPacketName)
	for _, tt := range []struct {
		name   string
		req    Request
		args   []string
		notice string
	}{
		{"Fresh", Request{Args: []string{"-p", "q"}}, []string{"-p", "q", kimiAgentFile, path}, ""},
		{"Resumed", Request{Args: []string{"-p", "q"}, LinkedSessionID: "L"}, []string{"-p", "q", "-S", "L"}, kimiResumedNote},
		{"Selector", Request{Args: []string{"-c"}}, []string{"-c"}, kimiResumedNote},
		{"UserAgent", Request{Args: []string{"--agent", "okabe", "-p", "q"}}, []string{"--agent", "okabe", "-p", "q"}, kimiAgentNote},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Packet, tt.req.RunDir = "PKT", "/run"
			p, err := planWith(kimi{}, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Args, tt.args) {
				t.Errorf("args %q, want %q", p.Args, tt.args)
			}
			if tt.notice != "" {
				if p.Delivery != DeliveryNone || len(p.Files) != 0 || !reflect.DeepEqual(p.Notices, []string{tt.notice}) {
					t.Errorf("delivery %v, files %v, notices %q; want none and the notice", p.Delivery, p.Files, p.Notices)
				}
				return
			}
			if len(p.Files) != 1 || p.Files[0].Path != path || p.Delivery != DeliveryOnStart ||
				!strings.Contains(p.Files[0].Content, "\n---\n${base_prompt}\n\nPKT") {
				t.Errorf("files %+v, delivery %v", p.Files, p.Delivery)
			}
		})
	}
}
