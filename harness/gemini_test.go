package harness

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestGemini_Plan(t *testing.T) {
	tty := func(args ...string) Request { return Request{Args: args, NewSessionID: "N", StdinTTY: true} }
	linked := func(args ...string) Request { r := tty(args...); r.LinkedSessionID = "L"; return r }
	yolo := func(r Request) Request { r.Yolo = true; return r }
	fresh := func(r Request) Request { r.Fresh = true; return r }
	S, P := ModeSession, ModePassthrough
	const U = "1d804cf9-1ac2-4ace-9d95-f477a43d7aab"
	tests := []planCase{
		{name: "FreshNoArgs", req: tty(), args: []string{"--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "ResumeLinked", req: linked(), args: []string{"--resume", "L"}, mode: S, interact: true, session: "L", resume: true},
		{name: "FreshIgnoresLinked", req: fresh(linked()), args: []string{"--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "UserArgsKeptInOrder", req: linked("-m", "gemini-2.5-pro", "fix it"), args: []string{"-m", "gemini-2.5-pro", "fix it", "--resume", "L"}, mode: S, interact: true, session: "L", resume: true},
		{name: "InsertBeforeDoubleDash", req: tty("-m", "x", "--", "--help"), args: []string{"-m", "x", "--session-id", "N", "--", "--help"}, mode: S, interact: true, session: "N"},
		{name: "ProbeWithoutNewID", req: Request{Args: []string{"hi"}, StdinTTY: true}, args: []string{"hi"}, mode: S, interact: true},
		// Native selectors suppress injection.
		{name: "ResumeID", req: linked("--resume", U), args: []string{"--resume", U}, mode: S, interact: true, explicit: true, explID: U, session: U, resume: true},
		{name: "ResumeEquals", req: linked("--resume=" + U), args: []string{"--resume=" + U}, mode: S, interact: true, explicit: true, explID: U, session: U, resume: true},
		{name: "ShortResume", req: tty("-r", U), args: []string{"-r", U}, mode: S, interact: true, explicit: true, explID: U, session: U, resume: true},
		{name: "ResumeBare", req: linked("--resume"), args: []string{"--resume"}, mode: S, interact: true, explicit: true},
		{name: "ResumeLatest", req: linked("--resume", "latest"), args: []string{"--resume", "latest"}, mode: S, interact: true, explicit: true},
		{name: "ResumeIndex", req: linked("-r", "5"), args: []string{"-r", "5"}, mode: S, interact: true, explicit: true},
		{name: "ResumeBareBeforeFlag", req: tty("--resume", "-m", "x"), args: []string{"--resume", "-m", "x"}, mode: S, interact: true, explicit: true},
		{name: "SessionID", req: linked("--session-id", U), args: []string{"--session-id", U}, mode: S, interact: true, explicit: true, explID: U, session: U},
		{name: "SessionIDEquals", req: tty("--session-id=" + U), args: []string{"--session-id=" + U}, mode: S, interact: true, explicit: true, explID: U, session: U},
		{name: "SessionFile", req: linked("--session-file", "s.json"), args: []string{"--session-file", "s.json"}, mode: S, interact: true, explicit: true},
		{name: "SelectorAfterDoubleDash", req: tty("--", "-r"), args: []string{"--session-id", "N", "--", "-r"}, mode: S, interact: true, session: "N"},
		{name: "FreshWithResume", req: fresh(tty("--resume", U)), err: ErrFreshWithSelector},
		{name: "FreshWithSessionID", req: fresh(tty("--session-id", U)), err: ErrFreshWithSelector},
		// Yolo: -y/--yolo or --approval-mode yolo, never both, never twice.
		{name: "YoloWrapper", req: yolo(tty()), args: []string{"--session-id", "N", "--yolo"}, mode: S, interact: true, session: "N"},
		{name: "YoloToken", req: tty("--yolo", "hi"), args: []string{"hi", "--session-id", "N", "--yolo"}, mode: S, interact: true, session: "N"},
		{name: "YoloTokenAndWrapper", req: yolo(tty("--yolo")), args: []string{"--session-id", "N", "--yolo"}, mode: S, interact: true, session: "N"},
		{name: "YoloShortKept", req: yolo(tty("-y")), args: []string{"-y", "--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "YoloApprovalModeYolo", req: yolo(tty("--approval-mode", "yolo")), args: []string{"--approval-mode", "yolo", "--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "YoloApprovalModeEquals", req: yolo(tty("--approval-mode=yolo")), args: []string{"--approval-mode=yolo", "--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "YoloUserApprovalModeWins", req: yolo(tty("--approval-mode", "plan")), args: []string{"--approval-mode", "plan", "--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "YoloAfterDoubleDashIsPrompt", req: tty("--", "--yolo"), args: []string{"--session-id", "N", "--", "--yolo"}, mode: S, interact: true, session: "N"},
		// Print mode.
		{name: "PromptShort", req: tty("-p", "hi"), args: []string{"-p", "hi", "--session-id", "N"}, mode: S, session: "N"},
		{name: "PromptLong", req: linked("--prompt=hi"), args: []string{"--prompt=hi", "--resume", "L"}, mode: S, session: "L", resume: true},
		{name: "PromptInteractive", req: tty("-i", "hi"), args: []string{"-i", "hi", "--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "StdinNotTTY", req: Request{Args: []string{"hi"}, NewSessionID: "N"}, args: []string{"hi", "--session-id", "N"}, mode: S, session: "N"},
		// Passthrough: utility subcommands, help, version, listings, ACP.
		{name: "MCP", req: linked("mcp", "list"), args: []string{"mcp", "list"}, mode: P, interact: true},
		{name: "Extensions", req: linked("extensions", "install", "x"), args: []string{"extensions", "install", "x"}, mode: P, interact: true},
		{name: "ExtensionAlias", req: linked("extension", "list"), args: []string{"extension", "list"}, mode: P, interact: true},
		{name: "Skills", req: tty("skills", "list"), args: []string{"skills", "list"}, mode: P, interact: true},
		{name: "Hooks", req: tty("hooks", "migrate"), args: []string{"hooks", "migrate"}, mode: P, interact: true},
		{name: "Gemma", req: tty("gemma"), args: []string{"gemma"}, mode: P, interact: true},
		{name: "Help", req: linked("--help"), args: []string{"--help"}, mode: P, interact: true},
		{name: "HelpShort", req: linked("-h"), args: []string{"-h"}, mode: P, interact: true},
		{name: "Version", req: linked("-v"), args: []string{"-v"}, mode: P, interact: true},
		{name: "ListSessions", req: linked("--list-sessions"), args: []string{"--list-sessions"}, mode: P, interact: true},
		{name: "DeleteSession", req: linked("--delete-session", "2"), args: []string{"--delete-session", "2"}, mode: P, interact: true},
		{name: "ListExtensions", req: linked("-l"), args: []string{"-l"}, mode: P, interact: true},
		{name: "ACP", req: linked("--acp"), args: []string{"--acp"}, mode: P, interact: true},
		{name: "PassthroughKeepsYoloToken", req: tty("mcp", "--yolo"), args: []string{"mcp", "--yolo"}, mode: P, interact: true},
		{name: "SubcommandWordAsPrompt", req: tty("fix", "mcp"), args: []string{"fix", "mcp", "--session-id", "N"}, mode: S, interact: true, session: "N"},
	}
	runPlanCases(t, Gemini(), tests)
}

func TestGemini_YoloNotice(t *testing.T) {
	p, err := Gemini().Plan(Request{Args: []string{"--approval-mode", "plan"}, Yolo: true, NewSessionID: "N"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Notices) != 1 || !strings.Contains(p.Notices[0], "--approval-mode plan") {
		t.Fatalf("notices = %q, want one naming --approval-mode plan", p.Notices)
	}
}

// TestGemini_Conformance runs TestConformance's checks over the planner,
// which is not in the registry yet, with Gemini's own added flags.
func TestGemini_Conformance(t *testing.T) {
	requests := []Request{
		{Args: []string{"fix", "--yolo"}, NewSessionID: "n", StdinTTY: true},
		{Args: []string{"-m", "x", "hello"}, LinkedSessionID: "l", Yolo: true, NewSessionID: "n"},
		{Args: []string{"-p", "hi", "-y"}, Packet: "P", RunDir: "/run", NewSessionID: "n", Yolo: true, BaseInstructions: "B"},
		{Args: []string{"-p", "hi"}, Packet: "P", RunDir: "/run", NewSessionID: "n", LinkedSessionID: "l", BaseInstructions: "B"},
	}
	h := Gemini()
	for _, r := range requests {
		before := slices.Clone(r.Args)
		p1, err1 := h.Plan(r)
		p2, err2 := h.Plan(r)
		if !reflect.DeepEqual(p1, p2) || (err1 == nil) != (err2 == nil) {
			t.Errorf("Plan not deterministic for %+v", r)
		}
		if !reflect.DeepEqual(r.Args, before) {
			t.Errorf("Plan changed the request's Args to %q", r.Args)
		}
		for _, flag := range []string{geminiYolo, geminiSessionIDOpt, geminiResumeOpt} {
			if n := countOf(p1.Args, flag); n > 1 {
				t.Errorf("%s appears %d times in %q", flag, n, p1.Args)
			}
		}
		if hasFlag(p1.Args, geminiYolo, geminiYoloShort) && hasFlag(p1.Args, geminiApprovalOpt) {
			t.Errorf("both a yolo flag and --approval-mode in %q", p1.Args)
		}
		checkSubsequence(t, h.Name(), before, p1.Args)
	}
}

func TestGeminiDelivery(t *testing.T) {
	tests := []struct {
		name, base, packet string
		want               string
		ok                 bool
	}{
		{"BaseThenPacket", "You are Gemini CLI.\n", "<!-- ai-memory:packet:v1 -->\nhistory\n", "You are Gemini CLI.\n\n<!-- ai-memory:packet:v1 -->\nhistory\n", true},
		{"TrailingNewlinesNormalised", "base\n\n\n", "packet", "base\n\npacket\n", true},
		{"NoBasePrompt", " \n", "packet", "", false},
		{"NoPacket", "base", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, env, ok := GeminiDelivery(tt.base, tt.packet, "/run/r1")
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if !ok {
				return
			}
			wantPath := filepath.Join("/run/r1", GeminiSystemFile)
			if f.Path != wantPath || f.Content != tt.want {
				t.Errorf("file = %q %q, want %q %q", f.Path, f.Content, wantPath, tt.want)
			}
			if !reflect.DeepEqual(env, map[string]string{GeminiSystemMDEnv: wantPath}) {
				t.Errorf("env = %v", env)
			}
		})
	}
}

func TestGemini_PlanDelivery(t *testing.T) {
	base := Request{Args: []string{"-p", "hi"}, Packet: "PKT", RunDir: "/run", NewSessionID: "N"}
	for _, tt := range []struct {
		name     string
		req      Request
		delivery Delivery
		notices  int
	}{
		{"Fresh", with(base, func(r *Request) { r.BaseInstructions = "BASE" }), DeliveryOnStart, 0},
		{"Resumed", with(base, func(r *Request) { r.BaseInstructions = "BASE"; r.LinkedSessionID = "L" }), DeliveryOnStart, 0},
		{"NoBasePrompt", base, DeliveryNone, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Gemini().Plan(tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if p.Delivery != tt.delivery || len(p.Notices) != tt.notices {
				t.Fatalf("delivery %v notices %q, want %v and %d", p.Delivery, p.Notices, tt.delivery, tt.notices)
			}
			if tt.delivery == DeliveryOnStart && (len(p.Files) != 1 || p.Env[GeminiSystemMDEnv] != p.Files[0].Path ||
				p.Files[0].Content != "BASE\n\nPKT\n") {
				t.Errorf("files %v env %v", p.Files, p.Env)
			}
		})
	}
}
