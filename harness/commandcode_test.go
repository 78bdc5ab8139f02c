package harness

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"
)

const ccID = "03923fe6-282a-47e5-bed9-fccfaa9d3c09"

func TestCommandCode_Plan(t *testing.T) {
	tty := func(args ...string) Request { return Request{Args: args, NewSessionID: "N", StdinTTY: true} }
	linked := func(args ...string) Request { r := tty(args...); r.LinkedSessionID = "L"; return r }
	S, P := ModeSession, ModePassthrough
	tests := []planCase{
		// Command Code makes the id: a fresh session is found after the run.
		{name: "FreshNoArgs", req: tty(), args: nil, mode: S, interact: true},
		{name: "FreshPrint", req: tty("-p", "fix it"), args: []string{"-p", "fix it"}, mode: S},
		{name: "ResumeLinked", req: linked("-p", "hi"), args: []string{"-p", "hi", "--session", "L"}, mode: S, session: "L", resume: true},
		{name: "ResumeLinkedTUI", req: linked(), args: []string{"--session", "L"}, mode: S, interact: true, session: "L", resume: true},
		{name: "ResumeBeforeDoubleDash", req: linked("-m", "x", "--", "-c"), args: []string{"-m", "x", "--session", "L", "--", "-c"}, mode: S, interact: true, session: "L", resume: true},
		{name: "FreshIgnoresLinked", req: with(linked("-p", "hi"), func(r *Request) { r.Fresh = true }), args: []string{"-p", "hi"}, mode: S},
		// Native selectors: nothing injected.
		{name: "SessionID", req: linked("--session", ccID), args: []string{"--session", ccID}, mode: S, interact: true, explicit: true, explID: ccID, session: ccID, resume: true},
		{name: "SessionPrefix", req: linked("--session", "03923fe6"), args: []string{"--session", "03923fe6"}, mode: S, interact: true, explicit: true},
		{name: "SessionPath", req: linked("--session", "/s/x.jsonl"), args: []string{"--session", "/s/x.jsonl"}, mode: S, interact: true, explicit: true},
		{name: "ResumeID", req: linked("-r", ccID, "-p", "q"), args: []string{"-r", ccID, "-p", "q"}, mode: S, explicit: true, explID: ccID, session: ccID, resume: true},
		{name: "ResumeName", req: linked("--resume", "my-feature"), args: []string{"--resume", "my-feature"}, mode: S, interact: true, explicit: true},
		{name: "ResumePicker", req: linked("-r"), args: []string{"-r"}, mode: S, interact: true, explicit: true},
		{name: "ForkSession", req: linked("-r", ccID, "--fork-session"), args: []string{"-r", ccID, "--fork-session"}, mode: S, interact: true, explicit: true},
		{name: "Continue", req: linked("-c"), args: []string{"-c"}, mode: S, interact: true, explicit: true},
		{name: "FreshWithContinue", req: with(tty("-c"), func(r *Request) { r.Fresh = true }), err: ErrFreshWithSelector},
		// Yolo.
		{name: "YoloWrapper", req: with(linked("-p", "q"), func(r *Request) { r.Yolo = true }), args: []string{"-p", "q", "--session", "L", commandcodeYolo}, mode: S, session: "L", resume: true},
		{name: "YoloToken", req: tty("--yolo", "-p", "q"), args: []string{"-p", "q", commandcodeYolo}, mode: S},
		{name: "YoloNotDuplicated", req: tty("--yolo", commandcodeYolo), args: []string{commandcodeYolo}, mode: S, interact: true},
		{name: "YoloUserMode", req: tty("--yolo", "--permission-mode", "plan"), args: []string{"--permission-mode", "plan"}, mode: S, interact: true},
		// Passthrough.
		{name: "Help", req: linked("--help"), args: []string{"--help"}, mode: P, interact: true},
		{name: "Version", req: linked("-v"), args: []string{"-v"}, mode: P, interact: true},
		{name: "ListModels", req: linked("--list-models"), args: []string{"--list-models"}, mode: P, interact: true},
		{name: "NoSession", req: linked("--no-session", "-p", "q"), args: []string{"--no-session", "-p", "q"}, mode: P},
		{name: "UtilityAfterOption", req: linked("-m", "x", "mcp", "list"), args: []string{"-m", "x", "mcp", "list"}, mode: P, interact: true},
		{name: "OptionValueNotUtility", req: linked("--model", "login", "-p", "hi"), args: []string{"--model", "login", "-p", "hi", "--session", "L"}, mode: S, session: "L", resume: true},
		{name: "PromptNotUtility", req: linked("-p", "update the deps"), args: []string{"-p", "update the deps", "--session", "L"}, mode: S, session: "L", resume: true},
	}
	for u := range commandcodeUtilities {
		tests = append(tests, planCase{name: "Utility_" + u, req: linked(u), args: []string{u}, mode: P, interact: true})
	}
	runPlanCases(t, commandcode{}, tests)
}

// TestCommandCode_Delivery: the packet goes in a per-run mod, fresh and
// resumed, after the user's own mods; the mod returns it as a string
// literal that decodes back to the packet, whatever it holds.
func TestCommandCode_Delivery(t *testing.T) {
	path := filepath.Join("/run", commandcodePacketName)
	packet := "<!-- ai-memory:packet:v1 -->\nquote \" backslash \\ `tick` ${x} \u2028 end"
	for _, tt := range []struct {
		name string
		req  Request
		args []string
	}{
		{"Fresh", Request{Args: []string{"-p", "q"}}, []string{"-p", "q", commandcodeModOpt, path}},
		{"Resumed", Request{Args: []string{"-p", "q"}, LinkedSessionID: "L"}, []string{"-p", "q", "--session", "L", commandcodeModOpt, path}},
		{"UserModKept", Request{Args: []string{commandcodeModOpt, "mine.ts", "-c"}}, []string{commandcodeModOpt, "mine.ts", "-c", commandcodeModOpt, path}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Packet, tt.req.RunDir = packet, "/run"
			p, err := planWith(commandcode{}, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Args, tt.args) || len(p.Files) != 1 || p.Files[0].Path != path || p.Delivery != DeliveryOnStart {
				t.Fatalf("args %q, files %v, delivery %v", p.Args, p.Files, p.Delivery)
			}
			m := regexp.MustCompile(`appendSystemPrompt: \(\) => (".*") \}\);`).FindStringSubmatch(p.Files[0].Content)
			var got string
			if m == nil || json.Unmarshal([]byte(m[1]), &got) != nil || got != packet {
				t.Errorf("mod %q does not return the packet", p.Files[0].Content)
			}
		})
	}
}
