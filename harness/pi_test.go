package harness

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
)

// piAt is a Pi planner whose executable reports version major.minor.
func piAt(major, minor int) pi {
	return pi{version: func(string) (int, int, bool) { return major, minor, true }}
}

func TestPi_Plan(t *testing.T) {
	tty := func(args ...string) Request { return Request{Args: args, NewSessionID: "N", StdinTTY: true} }
	linked := func(args ...string) Request { r := tty(args...); r.LinkedSessionID = "L"; return r }
	S, P := ModeSession, ModePassthrough
	tests := []planCase{
		{name: "FreshNoArgs", req: tty(), args: []string{"--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "FreshPrint", req: tty("-p", "fix it"), args: []string{"-p", "fix it", "--session-id", "N"}, mode: S, session: "N"},
		{name: "FreshBeforeDoubleDash", req: tty("-p", "--", "-x"), args: []string{"-p", "--session-id", "N", "--", "-x"}, mode: S, session: "N"},
		{name: "ResumeLinked", req: linked("-p", "hi"), args: []string{"-p", "hi", "--session", "L"}, mode: S, session: "L", resume: true},
		{name: "ResumeLinkedTUI", req: linked(), args: []string{"--session", "L"}, mode: S, interact: true, session: "L", resume: true},
		{name: "FreshIgnoresLinked", req: with(linked("hi"), func(r *Request) { r.Fresh = true }), args: []string{"hi", "--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "JSONMode", req: tty("--mode", "json", "hi"), args: []string{"--mode", "json", "hi", "--session-id", "N"}, mode: S, session: "N"},
		{name: "RedirectedStdin", req: Request{Args: []string{"hi"}, NewSessionID: "N"}, args: []string{"hi", "--session-id", "N"}, mode: S, session: "N"},
		// Native selectors: nothing injected.
		{name: "SessionID", req: linked("--session-id", "X"), args: []string{"--session-id", "X"}, mode: S, interact: true, explicit: true, explID: "X", session: "X"},
		{name: "SessionByID", req: linked("--session", "X"), args: []string{"--session", "X"}, mode: S, interact: true, explicit: true, explID: "X", session: "X", resume: true},
		{name: "SessionEquals", req: linked("--session=X", "-p", "q"), args: []string{"--session=X", "-p", "q"}, mode: S, explicit: true, explID: "X", session: "X", resume: true},
		{name: "SessionByPath", req: linked("--session", "/s/a_X.jsonl"), args: []string{"--session", "/s/a_X.jsonl"}, mode: S, interact: true, explicit: true},
		{name: "Continue", req: linked("-c"), args: []string{"-c"}, mode: S, interact: true, explicit: true},
		{name: "ContinueLong", req: linked("--continue", "-p", "q"), args: []string{"--continue", "-p", "q"}, mode: S, explicit: true},
		{name: "Resume", req: linked("-r"), args: []string{"-r"}, mode: S, interact: true, explicit: true},
		{name: "Fork", req: linked("--fork", "X"), args: []string{"--fork", "X"}, mode: S, interact: true, explicit: true},
		{name: "SessionWordInPrompt", req: tty("-p", "--", "--session"), args: []string{"-p", "--session-id", "N", "--", "--session"}, mode: S, session: "N"},
		{name: "FreshWithContinue", req: with(tty("-c"), func(r *Request) { r.Fresh = true }), err: ErrFreshWithSelector},
		{name: "FreshWithSessionID", req: with(tty("--session-id", "X"), func(r *Request) { r.Fresh = true }), err: ErrFreshWithSelector},
		// Yolo maps to nothing.
		{name: "YoloWrapper", req: with(linked("-p", "q"), func(r *Request) { r.Yolo = true }), args: []string{"-p", "q", "--session", "L"}, mode: S, session: "L", resume: true},
		{name: "YoloToken", req: tty("--yolo", "-p", "q"), args: []string{"-p", "q", "--session-id", "N"}, mode: S, session: "N"},
		// Passthrough.
		{name: "Help", req: linked("--help"), args: []string{"--help"}, mode: P, interact: true},
		{name: "Version", req: linked("-v"), args: []string{"-v"}, mode: P, interact: true},
		{name: "ListModels", req: linked("--list-models", "mock"), args: []string{"--list-models", "mock"}, mode: P, interact: true},
		{name: "Export", req: linked("--export", "s.jsonl"), args: []string{"--export", "s.jsonl"}, mode: P, interact: true},
		{name: "NoSession", req: linked("--no-session", "-p", "q"), args: []string{"--no-session", "-p", "q"}, mode: P},
		{name: "UtilityAfterOption", req: linked("--offline", "list"), args: []string{"--offline", "list"}, mode: P, interact: true},
		{name: "UtilityDropsYolo", req: with(linked("mcp", "list", "--yolo"), func(r *Request) { r.Packet = "P" }), args: []string{"mcp", "list"}, mode: P, interact: true},
		{name: "OptionValueNotUtility", req: linked("--model", "list", "hi"), args: []string{"--model", "list", "hi", "--session", "L"}, mode: S, interact: true, session: "L", resume: true},
		{name: "UtilityWordInPrompt", req: linked("install the deps"), args: []string{"install the deps", "--session", "L"}, mode: S, interact: true, session: "L", resume: true},
	}
	for _, u := range []string{"install", "remove", "uninstall", "update", "list", "config", "auth", "mcp"} {
		tests = append(tests, planCase{name: "Utility_" + u, req: linked(u), args: []string{u}, mode: P, interact: true})
	}
	runPlanCases(t, piAt(1, 6), tests)
}

// TestPi_OldVersionFresh: Pi before 0.76 rejects --session-id, so a fresh
// session gets no id (found after the run); resuming is the same in every
// version, and an unreadable version counts as old.
func TestPi_OldVersionFresh(t *testing.T) {
	unknown := pi{version: func(string) (int, int, bool) { return 0, 0, false }}
	for _, tt := range []struct {
		name string
		pl   pi
		req  Request
		args []string
		id   string
	}{
		{"0.73.1", piAt(0, 73), Request{Args: []string{"-p", "q"}, NewSessionID: "N"}, []string{"-p", "q"}, ""},
		{"0.75", piAt(0, 75), Request{Args: []string{"-p", "q"}, NewSessionID: "N"}, []string{"-p", "q"}, ""},
		{"0.76", piAt(0, 76), Request{Args: []string{"-p", "q"}, NewSessionID: "N"}, []string{"-p", "q", "--session-id", "N"}, "N"},
		{"unknown", unknown, Request{Args: []string{"-p", "q"}, NewSessionID: "N"}, []string{"-p", "q"}, ""},
		{"0.73.1Resume", piAt(0, 73), Request{Args: []string{"-p", "q"}, NewSessionID: "N", LinkedSessionID: "L"}, []string{"-p", "q", "--session", "L"}, "L"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := planWith(tt.pl, tt.req)
			if err != nil || !reflect.DeepEqual(p.Args, tt.args) || p.SessionID != tt.id {
				t.Errorf("plan = %q, %q, %v; want %q, %q", p.Args, p.SessionID, err, tt.args, tt.id)
			}
		})
	}
}

// TestPi_Delivery: the packet goes in a run file passed with
// --append-system-prompt, fresh and resumed, after the user's own.
func TestPi_Delivery(t *testing.T) {
	for _, tt := range []struct {
		name string
		req  Request
		args []string
	}{
		{"Fresh", Request{Args: []string{"-p", "q"}, NewSessionID: "N", Packet: "PKT", RunDir: "/run"},
			[]string{"-p", "q", "--session-id", "N", piAppendOpt, filepath.Join("/run", piPacketName)}},
		{"Resumed", Request{Args: []string{"-p", "q"}, NewSessionID: "N", LinkedSessionID: "L", Packet: "PKT", RunDir: "/run"},
			[]string{"-p", "q", "--session", "L", piAppendOpt, filepath.Join("/run", piPacketName)}},
		{"UserAppendKept", Request{Args: []string{piAppendOpt, "mine", "q"}, NewSessionID: "N", LinkedSessionID: "L", Packet: "PKT", RunDir: "/run"},
			[]string{piAppendOpt, "mine", "q", "--session", "L", piAppendOpt, filepath.Join("/run", piPacketName)}},
		{"Selector", Request{Args: []string{"-c", "q"}, NewSessionID: "N", Packet: "PKT", RunDir: "/run"},
			[]string{"-c", "q", piAppendOpt, filepath.Join("/run", piPacketName)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := planWith(piAt(1, 6), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Args, tt.args) {
				t.Errorf("Args = %q, want %q", p.Args, tt.args)
			}
			want := []File{{Path: filepath.Join("/run", piPacketName), Content: "PKT"}}
			if !reflect.DeepEqual(p.Files, want) || p.Delivery != DeliveryOnStart {
				t.Errorf("files %v, delivery %v; want %v, on start", p.Files, p.Delivery, want)
			}
		})
	}
}

func TestPi_YoloNotice(t *testing.T) {
	p, err := planWith(piAt(1, 6), Request{Args: []string{"-p", "q"}, Yolo: true})
	if err != nil || len(p.Notices) != 1 || p.Notices[0] != piYoloNotice {
		t.Errorf("notices %v, %v; want the no-gate notice", p.Notices, err)
	}
}

func TestParsePiVersion(t *testing.T) {
	for in, want := range map[string][3]int{
		"1.6.0\n": {1, 6, 1}, "0.73.1": {0, 73, 1}, "v0.80.4\n": {0, 80, 1}, "pi\n": {0, 0, 0}, "": {0, 0, 0},
		"Warning: x\n0.73.1\n": {0, 73, 1},
	} {
		major, minor, ok := parsePiVersion(in)
		if got := [3]int{major, minor, map[bool]int{true: 1}[ok]}; got != want {
			t.Errorf("parsePiVersion(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestPiVersionProbe runs a real executable: the probe reads its stdout.
func TestPiVersionProbe(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell script")
	}
	exe := filepath.Join(t.TempDir(), "pi")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\necho 0.73.1\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	if major, minor, ok := piVersion(exe); !ok || major != 0 || minor != 73 {
		t.Errorf("piVersion = %d.%d %v", major, minor, ok)
	}
	if _, _, ok := piVersion(filepath.Join(t.TempDir(), "missing")); ok {
		t.Error("a missing executable has a version")
	}
}
