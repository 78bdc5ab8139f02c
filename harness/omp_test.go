package harness

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestOmp_Plan(t *testing.T) {
	tty := func(args ...string) Request { return Request{Args: args, NewSessionID: "N", StdinTTY: true} }
	linked := func(args ...string) Request { r := tty(args...); r.LinkedSessionID = "L"; return r }
	yolo := func(r Request) Request { r.Yolo = true; return r }
	S, P := ModeSession, ModePassthrough
	tests := []planCase{
		// No caller id: a fresh session gets nothing and is found afterwards.
		{name: "FreshNoArgs", req: tty(), args: nil, mode: S, interact: true},
		{name: "FreshPrint", req: tty("-p", "fix it"), args: []string{"-p", "fix it"}, mode: S},
		{name: "ResumeLinked", req: linked("-p", "hi"), args: []string{"-p", "hi", "--resume", "L"}, mode: S, session: "L", resume: true},
		{name: "ResumeLinkedTUI", req: linked(), args: []string{"--resume", "L"}, mode: S, interact: true, session: "L", resume: true},
		{name: "ResumeBeforeDoubleDash", req: linked("-p", "--", "-x"), args: []string{"-p", "--resume", "L", "--", "-x"}, mode: S, session: "L", resume: true},
		{name: "JSONMode", req: linked("--mode", "json", "hi"), args: []string{"--mode", "json", "hi", "--resume", "L"}, mode: S, session: "L", resume: true},
		{name: "LaunchCommand", req: linked("launch", "hi"), args: []string{"launch", "hi", "--resume", "L"}, mode: S, interact: true, session: "L", resume: true},
		// Native selectors.
		{name: "ResumeID", req: linked("-r", "X"), args: []string{"-r", "X"}, mode: S, interact: true, explicit: true, explID: "X", session: "X", resume: true},
		{name: "SessionEquals", req: linked("--session=X", "-p", "hi"), args: []string{"--session=X", "-p", "hi"}, mode: S, explicit: true, explID: "X", session: "X", resume: true},
		{name: "ResumePath", req: linked("--resume", "/s/a_X.jsonl"), args: []string{"--resume", "/s/a_X.jsonl"}, mode: S, interact: true, explicit: true},
		{name: "ResumePicker", req: linked("--resume"), args: []string{"--resume"}, mode: S, interact: true, explicit: true},
		{name: "Continue", req: linked("-c"), args: []string{"-c"}, mode: S, interact: true, explicit: true},
		{name: "Fork", req: linked("--fork", "X"), args: []string{"--fork", "X"}, mode: S, interact: true, explicit: true},
		{name: "FromClaude", req: linked("--from-claude"), args: []string{"--from-claude"}, mode: S, interact: true, explicit: true},
		{name: "FreshWithContinue", req: with(tty("-c"), func(r *Request) { r.Fresh = true }), err: ErrFreshWithSelector},
		// Yolo.
		{name: "YoloWrapper", req: yolo(linked("-p", "hi")), args: []string{"-p", "hi", "--resume", "L", ompYolo}, mode: S, session: "L", resume: true},
		{name: "YoloToken", req: tty("--yolo", "-p", "hi"), args: []string{"-p", "hi", ompYolo}, mode: S},
		{name: "YoloNative", req: yolo(tty("--auto-approve", "-p", "hi")), args: []string{"--auto-approve", "-p", "hi"}, mode: S},
		{name: "YoloModeGiven", req: yolo(tty("--approval-mode", "yolo", "-p", "hi")), args: []string{"--approval-mode", "yolo", "-p", "hi"}, mode: S},
		// Passthrough.
		{name: "Help", req: linked("--help"), args: []string{"--help"}, mode: P, interact: true},
		{name: "Version", req: linked("-v"), args: []string{"-v"}, mode: P, interact: true},
		{name: "NoSession", req: linked("--no-session", "-p", "hi"), args: []string{"--no-session", "-p", "hi"}, mode: P},
		{name: "ACPMode", req: linked("--mode", "acp"), args: []string{"--mode", "acp"}, mode: P, interact: true},
		{name: "UtilityAfterOption", req: linked("--model", "m", "plugin", "list"), args: []string{"--model", "m", "plugin", "list"}, mode: P, interact: true},
		{name: "OptionValueNotUtility", req: linked("--model", "update", "hi"), args: []string{"--model", "update", "hi", "--resume", "L"}, mode: S, interact: true, session: "L", resume: true},
		{name: "UtilityWordInPrompt", req: linked("update the deps"), args: []string{"update the deps", "--resume", "L"}, mode: S, interact: true, session: "L", resume: true},
	}
	for _, u := range []string{"plugin", "config", "models", "update", "setup", "acp", "wt", "list"} {
		tests = append(tests, planCase{name: "Utility_" + u, req: linked(u), args: []string{u}, mode: P, interact: true})
	}
	runPlanCases(t, omp{}, tests)
}

// TestOmp_Delivery: a run file passed with --append-system-prompt, fresh
// and resumed; OMP keeps only the last value, so a user's own text or file
// goes first in the run file, which takes its place.
func TestOmp_Delivery(t *testing.T) {
	userFile := filepath.Join(t.TempDir(), "mine.md")
	if err := os.WriteFile(userFile, []byte("FROM FILE"), 0o600); err != nil {
		t.Fatal(err)
	}
	pkt := filepath.Join("/run", ompPacket)
	for _, tt := range []struct {
		name    string
		req     Request
		args    []string
		content string
	}{
		{"Fresh", Request{Args: []string{"-p", "hi"}, Packet: "PKT", RunDir: "/run"}, []string{"-p", "hi", ompAppendOpt, pkt}, "PKT"},
		{"Resumed", Request{Args: []string{"-p", "hi"}, LinkedSessionID: "L", Packet: "PKT", RunDir: "/run"}, []string{"-p", "hi", "--resume", "L", ompAppendOpt, pkt}, "PKT"},
		{"UserText", Request{Args: []string{ompAppendOpt, "mine", "-p", "hi"}, Packet: "PKT", RunDir: "/run"}, []string{ompAppendOpt, pkt, "-p", "hi"}, "mine\n\nPKT"},
		{"UserFile", Request{Args: []string{ompAppendOpt + "=" + userFile, "-p", "hi"}, Packet: "PKT", RunDir: "/run"}, []string{ompAppendOpt + "=" + pkt, "-p", "hi"}, "FROM FILE\n\nPKT"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := planWith(omp{}, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			want := []File{{Path: pkt, Content: tt.content}}
			if !reflect.DeepEqual(p.Args, tt.args) || !reflect.DeepEqual(p.Files, want) || p.Delivery != DeliveryOnStart {
				t.Errorf("args %q files %v delivery %v; want %q %v on start", p.Args, p.Files, p.Delivery, tt.args, want)
			}
		})
	}
}

func TestOmp_YoloModeNotice(t *testing.T) {
	p, err := planWith(omp{}, Request{Args: []string{"--approval-mode", "write", "-p", "hi"}, Yolo: true})
	if err != nil || len(p.Notices) != 1 || p.Notices[0] != ompYoloModeNotice || hasFlag(p.Args, ompYolo) {
		t.Errorf("args %q notices %v, %v; want the approval-mode notice and no %s", p.Args, p.Notices, err, ompYolo)
	}
}
