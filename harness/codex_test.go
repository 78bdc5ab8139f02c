package harness

import (
	"reflect"
	"strings"
	"testing"
)

func TestCodex_Plan(t *testing.T) {
	tty := func(args ...string) Request { return Request{Args: args, NewSessionID: "N", StdinTTY: true} }
	linked := func(args ...string) Request { r := tty(args...); r.LinkedSessionID = "L"; return r }
	S, P := ModeSession, ModePassthrough
	tests := []planCase{
		{name: "FreshNoArgs", req: tty(), args: nil, mode: S, interact: true},
		{name: "FreshPrompt", req: tty("fix it"), args: []string{"fix it"}, mode: S, interact: true},
		{name: "ResumeLinked", req: linked(), args: []string{"resume", "L"}, mode: S, interact: true, session: "L", resume: true},
		{name: "ResumeLinkedPrompt", req: linked("-m", "o3", "fix it"), args: []string{"resume", "L", "-m", "o3", "fix it"}, mode: S, interact: true, session: "L", resume: true},
		{name: "FreshIgnoresLinked", req: with(linked("hi"), func(r *Request) { r.Fresh = true }), args: []string{"hi"}, mode: S, interact: true},
		{name: "Exec", req: linked("exec", "--json", "p"), args: []string{"exec", "--json", "resume", "L", "p"}, session: "L", resume: true},
		{name: "ExecOptionValues", req: linked("exec", "--color", "never", "-o", "out.txt", "p"), args: []string{"exec", "--color", "never", "-o", "out.txt", "resume", "L", "p"}, session: "L", resume: true},
		{name: "ExecAlias", req: linked("e", "p"), args: []string{"e", "resume", "L", "p"}, session: "L", resume: true},
		{name: "ExecStdinPrompt", req: linked("exec", "--json"), args: []string{"exec", "--json", "resume", "L"}, session: "L", resume: true},
		{name: "ExecDoubleDash", req: linked("exec", "--", "-p"), args: []string{"exec", "resume", "L", "--", "-p"}, session: "L", resume: true},
		{name: "RootOptionsBeforeExec", req: linked("-c", "a=1", "exec", "p"), args: []string{"-c", "a=1", "exec", "resume", "L", "p"}, session: "L", resume: true},
		{name: "ExecFresh", req: tty("exec", "p"), args: []string{"exec", "p"}, mode: S},
		// Native selectors.
		{name: "Resume", req: linked("resume", "X"), args: []string{"resume", "X"}, mode: S, interact: true, explicit: true, explID: "X", session: "X", resume: true},
		{name: "ResumeLast", req: linked("resume", "--last"), args: []string{"resume", "--last"}, mode: S, interact: true, explicit: true},
		{name: "ResumePicker", req: linked("resume"), args: []string{"resume"}, mode: S, interact: true, explicit: true},
		{name: "Fork", req: linked("fork", "X"), args: []string{"fork", "X"}, mode: S, interact: true, explicit: true, explID: "X"},
		{name: "ExecResume", req: linked("exec", "resume", "X", "p"), args: []string{"exec", "resume", "X", "p"}, mode: S, explicit: true, explID: "X", session: "X", resume: true},
		{name: "ExecOptionsResume", req: tty("exec", "--json", "resume", "X"), args: []string{"exec", "--json", "resume", "X"}, mode: S, explicit: true, explID: "X", session: "X", resume: true},
		{name: "ExecResumeLast", req: tty("exec", "resume", "--last", "p"), args: []string{"exec", "resume", "--last", "p"}, mode: S, explicit: true},
		{name: "ResumeAsPrompt", req: tty("--", "resume"), args: []string{"--", "resume"}, mode: S, interact: true},
		{name: "FreshWithResume", req: with(tty("resume", "X"), func(r *Request) { r.Fresh = true }), err: ErrFreshWithSelector},
		{name: "FreshWithExecResume", req: with(tty("exec", "resume", "X"), func(r *Request) { r.Fresh = true }), err: ErrFreshWithSelector},
		{name: "FreshWithFork", req: with(tty("fork"), func(r *Request) { r.Fresh = true }), err: ErrFreshWithSelector},
		// Yolo.
		{name: "YoloWrapper", req: with(tty("exec", "p"), func(r *Request) { r.Yolo = true }), args: []string{"exec", "p", codexYolo}, mode: S},
		{name: "YoloToken", req: linked("--yolo", "hi"), args: []string{"resume", "L", "hi", codexYolo}, mode: S, interact: true, session: "L", resume: true},
		{name: "YoloNotDuplicated", req: with(tty(codexYolo, "--yolo"), func(r *Request) { r.Yolo = true }), args: []string{codexYolo}, mode: S, interact: true},
		{name: "YoloBeforeDoubleDash", req: with(tty("exec", "--", "p"), func(r *Request) { r.Yolo = true }), args: []string{"exec", codexYolo, "--", "p"}, mode: S},
		// Noninteractive.
		{name: "RedirectedStdin", req: Request{Args: []string{"hi"}}, args: []string{"hi"}, mode: S},
		// Passthrough.
		{name: "ExecReview", req: linked("exec", "review", "--uncommitted"), args: []string{"exec", "review", "--uncommitted"}, mode: P},
		{name: "ExecHelp", req: linked("exec", "help"), args: []string{"exec", "help"}, mode: P},
		{name: "Help", req: linked("--help"), args: []string{"--help"}, mode: P, interact: true},
		{name: "ExecVersion", req: linked("exec", "-V"), args: []string{"exec", "-V"}, mode: P},
		{name: "Version", req: linked("--version"), args: []string{"--version"}, mode: P, interact: true},
		{name: "Ephemeral", req: linked("exec", "--ephemeral", "p"), args: []string{"exec", "--ephemeral", "p"}, mode: P},
		{name: "UtilityAfterRootOption", req: linked("-c", "x=1", "login"), args: []string{"-c", "x=1", "login"}, mode: P, interact: true},
		{name: "UtilityDropsYolo", req: with(linked("mcp", "list", "--yolo"), func(r *Request) { r.Yolo = true; r.Packet = "P" }), args: []string{"mcp", "list"}, mode: P, interact: true},
		{name: "UtilityWordInPrompt", req: tty("review my code"), args: []string{"review my code"}, mode: S, interact: true},
	}
	for _, u := range []string{"review", "login", "logout", "mcp", "plugin", "mcp-server", "app-server", "remote-control", "completion", "update", "doctor", "sandbox", "debug", "apply", "archive", "delete", "unarchive", "cloud", "exec-server", "features", "help"} {
		tests = append(tests, planCase{name: "Utility_" + u, req: linked(u), args: []string{u}, mode: P, interact: true})
	}
	runPlanCases(t, codex{}, tests)
}

func codexDelivery(args ...string) Request {
	return Request{Args: args, Packet: "PACKET \"q\"\nline2", RunDir: "/run/r1", BaseInstructions: "You are Codex.", StdinTTY: true}
}

func TestCodex_PlanDeliveryFresh(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		want   []string
		notice bool
	}{
		{"Interactive", nil, []string{"-c", `developer_instructions="PACKET \"q\"\nline2"`}, false},
		{"Exec", []string{"exec", "hi"}, []string{"-c", `developer_instructions="PACKET \"q\"\nline2"`, "exec", "hi"}, false},
		{"MergeShort", []string{"exec", "-c", `developer_instructions="mine"`, "hi"}, []string{"exec", "-c", `developer_instructions="mine\n\nPACKET \"q\"\nline2"`, "hi"}, true},
		{"MergeLong", []string{"--config", "developer_instructions=mine", "hi"}, []string{"--config", `developer_instructions="mine\n\nPACKET \"q\"\nline2"`, "hi"}, true},
		{"MergeEquals", []string{"--config=developer_instructions='a\\b'"}, []string{`--config=developer_instructions="a\\b\n\nPACKET \"q\"\nline2"`}, true},
		{"MergeAttached", []string{"-cdeveloper_instructions=\"x\"", "-c", "developer_instructions=\"y\""}, []string{"-cdeveloper_instructions=\"x\"", "-c", `developer_instructions="y\n\nPACKET \"q\"\nline2"`}, true},
		{"OtherKeyKept", []string{"-c", "model=\"o3\""}, []string{"-c", `developer_instructions="PACKET \"q\"\nline2"`, "-c", "model=\"o3\""}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := planWith(codex{}, codexDelivery(tt.args...))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Args, tt.want) {
				t.Errorf("Args = %q\nwant   %q", p.Args, tt.want)
			}
			if p.Delivery != DeliveryOnStart || len(p.Files) != 0 || (len(p.Notices) == 1) != tt.notice {
				t.Errorf("delivery %v files %v notices %q", p.Delivery, p.Files, p.Notices)
			}
		})
	}
}

func TestCodex_PlanDeliveryResumed(t *testing.T) {
	wantFile := []File{{Path: "/run/r1/codex-instructions.md", Content: "You are Codex.\n\nPACKET \"q\"\nline2"}}
	flag := `model_instructions_file="/run/r1/codex-instructions.md"`
	tests := []struct {
		name   string
		req    Request
		want   []string
		notice string
	}{
		{"Linked", with(codexDelivery(), func(r *Request) { r.LinkedSessionID = "L" }), []string{"-c", flag, "resume", "L"}, ""},
		{"LinkedExec", with(codexDelivery("exec", "p"), func(r *Request) { r.LinkedSessionID = "L" }), []string{"-c", flag, "exec", "resume", "L", "p"}, ""},
		{"ExplicitResume", codexDelivery("exec", "resume", "X", "p"), []string{"-c", flag, "exec", "resume", "X", "p"}, ""},
		{"Fork", codexDelivery("fork", "X"), []string{"-c", flag, "fork", "X"}, ""},
		{"NoBase", with(codexDelivery("resume", "X"), func(r *Request) { r.BaseInstructions = " \n" }), []string{"resume", "X"}, "base instructions"},
		{"UserInstructionsFile", codexDelivery("resume", "X", "-c", "model_instructions_file=/mine.md"), []string{"resume", "X", "-c", "model_instructions_file=/mine.md"}, "model_instructions_file"},
		{"UserInstructions", codexDelivery("-c", "instructions=\"be brief\"", "resume", "X"), []string{"-c", "instructions=\"be brief\"", "resume", "X"}, "-c instructions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := planWith(codex{}, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Args, tt.want) {
				t.Errorf("Args = %q\nwant   %q", p.Args, tt.want)
			}
			if tt.notice == "" {
				if p.Delivery != DeliveryOnStart || !reflect.DeepEqual(p.Files, wantFile) || len(p.Notices) != 0 {
					t.Errorf("delivery %v files %q notices %q", p.Delivery, p.Files, p.Notices)
				}
				return
			}
			if p.Delivery != DeliveryNone || len(p.Files) != 0 || len(p.Notices) != 1 || !strings.Contains(p.Notices[0], tt.notice) {
				t.Errorf("delivery %v files %v notices %q; want a skip mentioning %q", p.Delivery, p.Files, p.Notices, tt.notice)
			}
		})
	}
}

func with(r Request, f func(*Request)) Request { f(&r); return r }

func TestParseOverride(t *testing.T) {
	tests := []struct {
		args             []string
		key, value, pref string
		idx              int
	}{
		{[]string{"-c", "a.b=1"}, "a.b", "1", "", 1},
		{[]string{"--config", "k = \"v=w\""}, "k", "\"v=w\"", "", 1},
		{[]string{"--config=k=v"}, "k", "v", "--config=", 0},
		{[]string{"-ck=v"}, "k", "v", "-c", 0},
		{[]string{"-c"}, "", "", "", -1},
	}
	for _, tt := range tests {
		ov := parseOverride(tt.args, 0)
		if ov.key != tt.key || ov.value != tt.value || ov.prefix != tt.pref || ov.valueIdx != tt.idx {
			t.Errorf("parseOverride(%q) = %+v", tt.args, ov)
		}
	}
}
