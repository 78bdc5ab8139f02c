package harness

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// geminiWith is a Gemini planner whose default prompt is base (or err).
func geminiWith(base string, err error) gemini {
	return gemini{basePrompt: func(geminiShape) (string, error) { return base, err }}
}

func TestGemini_Plan(t *testing.T) {
	tty := func(args ...string) Request { return Request{Args: args, NewSessionID: "N", StdinTTY: true} }
	linked := func(args ...string) Request { r := tty(args...); r.LinkedSessionID = "L"; return r }
	S, P := ModeSession, ModePassthrough
	tests := []planCase{
		{name: "FreshNoArgs", req: tty(), args: []string{"--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "FreshPrint", req: tty("-p", "fix it"), args: []string{"-p", "fix it", "--session-id", "N"}, mode: S, session: "N"},
		{name: "FreshBeforeDoubleDash", req: tty("-m", "x", "--", "-p"), args: []string{"-m", "x", "--session-id", "N", "--", "-p"}, mode: S, interact: true, session: "N"},
		{name: "ResumeLinked", req: linked("-p", "hi"), args: []string{"-p", "hi", "--resume", "L"}, mode: S, session: "L", resume: true},
		{name: "ResumeLinkedTUI", req: linked(), args: []string{"--resume", "L"}, mode: S, interact: true, session: "L", resume: true},
		{name: "FreshIgnoresLinked", req: with(linked("hi"), func(r *Request) { r.Fresh = true }), args: []string{"hi", "--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "PromptInteractive", req: linked("-i", "hi"), args: []string{"-i", "hi", "--resume", "L"}, mode: S, interact: true, session: "L", resume: true},
		{name: "RedirectedStdin", req: Request{Args: []string{"hi"}, NewSessionID: "N"}, args: []string{"hi", "--session-id", "N"}, mode: S, session: "N"},
		// Native selectors: nothing injected.
		{name: "ResumeID", req: linked("--resume", "X"), args: []string{"--resume", "X"}, mode: S, interact: true, explicit: true, explID: "X", session: "X", resume: true},
		{name: "ResumeShort", req: linked("-r", "X", "-p", "q"), args: []string{"-r", "X", "-p", "q"}, mode: S, explicit: true, explID: "X", session: "X", resume: true},
		{name: "ResumeEquals", req: linked("--resume=X"), args: []string{"--resume=X"}, mode: S, interact: true, explicit: true, explID: "X", session: "X", resume: true},
		{name: "ResumeBare", req: linked("--resume"), args: []string{"--resume"}, mode: S, interact: true, explicit: true},
		{name: "ResumeLatest", req: linked("-r", "latest"), args: []string{"-r", "latest"}, mode: S, interact: true, explicit: true},
		{name: "ResumeIndex", req: linked("--resume", "5"), args: []string{"--resume", "5"}, mode: S, interact: true, explicit: true},
		{name: "SessionID", req: linked("--session-id", "X"), args: []string{"--session-id", "X"}, mode: S, interact: true, explicit: true, explID: "X", session: "X"},
		{name: "SessionFile", req: linked("--session-file", "s.json"), args: []string{"--session-file", "s.json"}, mode: S, interact: true, explicit: true},
		{name: "ResumeWordInPrompt", req: tty("-p", "q", "--", "--resume"), args: []string{"-p", "q", "--session-id", "N", "--", "--resume"}, mode: S, session: "N"},
		{name: "FreshWithResume", req: with(tty("--resume"), func(r *Request) { r.Fresh = true }), err: ErrFreshWithSelector},
		{name: "FreshWithSessionID", req: with(tty("--session-id", "X"), func(r *Request) { r.Fresh = true }), err: ErrFreshWithSelector},
		// Yolo: -y once, never with --approval-mode.
		{name: "YoloWrapper", req: with(linked("-p", "q"), func(r *Request) { r.Yolo = true }), args: []string{"-p", "q", "--resume", "L", "-y"}, mode: S, session: "L", resume: true},
		{name: "YoloToken", req: tty("--yolo", "-p", "q"), args: []string{"-p", "q", "--session-id", "N", "-y"}, mode: S, session: "N"},
		{name: "YoloUserShort", req: with(tty("-p", "q", "-y"), func(r *Request) { r.Yolo = true }), args: []string{"-p", "q", "-y", "--session-id", "N"}, mode: S, session: "N"},
		{name: "YoloApprovalMode", req: with(tty("--approval-mode", "yolo"), func(r *Request) { r.Yolo = true }), args: []string{"--approval-mode", "yolo", "--session-id", "N"}, mode: S, interact: true, session: "N"},
		{name: "YoloOtherApprovalMode", req: with(tty("--approval-mode=plan"), func(r *Request) { r.Yolo = true }), args: []string{"--approval-mode=plan", "--session-id", "N"}, mode: S, interact: true, session: "N"},
		// Passthrough.
		{name: "Help", req: linked("--help"), args: []string{"--help"}, mode: P, interact: true},
		{name: "Version", req: linked("-v"), args: []string{"-v"}, mode: P, interact: true},
		{name: "ListSessions", req: linked("--list-sessions"), args: []string{"--list-sessions"}, mode: P, interact: true},
		{name: "DeleteSession", req: linked("--delete-session", "2"), args: []string{"--delete-session", "2"}, mode: P, interact: true},
		{name: "ListExtensions", req: linked("-l"), args: []string{"-l"}, mode: P, interact: true},
		{name: "ACP", req: linked("--acp"), args: []string{"--acp"}, mode: P, interact: true},
		{name: "Worktree", req: linked("-w", "feat"), args: []string{"-w", "feat"}, mode: P, interact: true},
		{name: "UtilityAfterOption", req: linked("-d", "mcp", "list"), args: []string{"-d", "mcp", "list"}, mode: P, interact: true},
		{name: "UtilityDropsYolo", req: with(linked("mcp", "list", "--yolo"), func(r *Request) { r.Packet = "P" }), args: []string{"mcp", "list"}, mode: P, interact: true},
		{name: "OptionValueNotUtility", req: linked("-m", "mcp", "hi"), args: []string{"-m", "mcp", "hi", "--resume", "L"}, mode: S, interact: true, session: "L", resume: true},
		{name: "PromptValueNotUtility", req: linked("-p", "mcp"), args: []string{"-p", "mcp", "--resume", "L"}, mode: S, session: "L", resume: true},
		{name: "UtilityWordInPrompt", req: linked("skills are nice"), args: []string{"skills are nice", "--resume", "L"}, mode: S, interact: true, session: "L", resume: true},
	}
	for _, u := range []string{"mcp", "extensions", "extension", "skills", "skill", "hooks", "hook", "gemma"} {
		tests = append(tests, planCase{name: "Utility_" + u, req: linked(u), args: []string{u}, mode: P, interact: true})
	}
	runPlanCases(t, geminiWith("BASE", nil), tests)
}

func TestGemini_YoloNotice(t *testing.T) {
	p, err := planWith(geminiWith("B", nil), Request{Args: []string{"--approval-mode", "plan"}, Yolo: true})
	if err != nil || len(p.Notices) != 1 || !strings.Contains(p.Notices[0], "--approval-mode plan wins") {
		t.Errorf("notices %v, %v", p.Notices, err)
	}
}

// TestGemini_Delivery: GEMINI_SYSTEM_MD names a run file holding Gemini's
// own prompt and then the packet, fresh, resumed and with a selector.
func TestGemini_Delivery(t *testing.T) {
	file := filepath.Join("/run", geminiPacketFile)
	for _, tt := range []struct {
		name string
		req  Request
		args []string
	}{
		{"Fresh", Request{Args: []string{"-p", "q"}, NewSessionID: "N"}, []string{"-p", "q", "--session-id", "N"}},
		{"Resumed", Request{Args: []string{"-p", "q"}, NewSessionID: "N", LinkedSessionID: "L"}, []string{"-p", "q", "--resume", "L"}},
		{"Selector", Request{Args: []string{"--resume", "X"}, NewSessionID: "N"}, []string{"--resume", "X"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Packet, tt.req.RunDir = "PKT", "/run"
			p, err := planWith(geminiWith("BASE\n", nil), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			want := []File{{Path: file, Content: "BASE\n\nPKT"}}
			if !reflect.DeepEqual(p.Args, tt.args) || !reflect.DeepEqual(p.Files, want) ||
				p.Env[EnvGeminiSystemMD] != file || p.Delivery != DeliveryOnStart {
				t.Errorf("args %q files %v env %v delivery %v", p.Args, p.Files, p.Env, p.Delivery)
			}
		})
	}
}

// TestGemini_DeliveryFallbacks: the user's own GEMINI_SYSTEM_MD is
// extended instead of Gemini's default; without a prompt to extend nothing
// is delivered and the user is told why.
func TestGemini_DeliveryFallbacks(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "mine.md")
	if err := os.WriteFile(own, []byte("MINE"), 0o600); err != nil {
		t.Fatal(err)
	}
	req := func(env map[string]string) Request {
		return Request{Args: []string{"-p", "q"}, NewSessionID: "N", Packet: "PKT", RunDir: "/run", Env: env}
	}
	p, err := planWith(geminiWith("BASE", nil), req(map[string]string{EnvGeminiSystemMD: own}))
	if err != nil || len(p.Files) != 1 || p.Files[0].Content != "MINE\n\nPKT" {
		t.Errorf("user's file: %v %v", p.Files, err)
	}
	p, _ = planWith(geminiWith("BASE", nil), req(map[string]string{EnvGeminiSystemMD: "false"}))
	if len(p.Files) != 1 || p.Files[0].Content != "BASE\n\nPKT" {
		t.Errorf("disabled user value: %v", p.Files)
	}
	for name, pl := range map[string]gemini{
		"missing user file": geminiWith("BASE", nil),
		"dry start failed":  geminiWith("", errors.New("boom")),
	} {
		env := map[string]string{}
		if name == "missing user file" {
			env[EnvGeminiSystemMD] = filepath.Join(dir, "nope.md")
		}
		p, err := planWith(pl, req(env))
		if err != nil || p.Delivery != DeliveryNone || len(p.Files) != 0 || len(p.Env) != 0 || len(p.Notices) != 1 {
			t.Errorf("%s: delivery %v files %v env %v notices %v err %v", name, p.Delivery, p.Files, p.Env, p.Notices, err)
		}
	}
}

func TestGeminiShapeFlags(t *testing.T) {
	got := geminiShapeFlags([]string{"-m", "pro", "-p", "q", "--approval-mode=plan", "-y", "--", "-m", "x"})
	want := []string{"-m", "pro", "--approval-mode=plan", "-y"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("flags %q, want %q", got, want)
	}
}

func TestGeminiSettingsSubset(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	user := `{"model":{"name":"m"},"mcpServers":{"x":{"command":"y"}},"tools":{"sandbox":true,"exclude":["a"]},"general":{"vimMode":true}}`
	if err := os.WriteFile(path, []byte(user), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, want := geminiSettingsSubset(path), `{"model":{"name":"m"},"tools":{"exclude":["a"]}}`; got != want {
		t.Errorf("subset %s, want %s", got, want)
	}
	if got := geminiSettingsSubset(filepath.Join(t.TempDir(), "none")); got != "{}" {
		t.Errorf("missing file: %s", got)
	}
	merged, err := mergeJSON(geminiDrySettings, `{"model":{"name":"m"},"tools":{"exclude":["a"]},"general":{"defaultApprovalMode":"plan"}}`)
	if err != nil || !strings.Contains(merged, `"defaultApprovalMode":"plan"`) || !strings.Contains(merged, `"enableAutoUpdate":false`) {
		t.Errorf("merged %s, %v", merged, err)
	}
}

// TestGeminiDryStart runs a stand-in executable that writes its prompt,
// naming its home, to GEMINI_WRITE_SYSTEM_MD and then hangs: the dry start
// returns the prompt with the real home, kills it, and caches the result.
func TestGeminiDryStart(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs a pseudo-terminal")
	}
	dir := t.TempDir()
	exe := filepath.Join(dir, "gemini")
	script := "#!/bin/sh\n[ -t 0 ] && mode=tty || mode=pipe\necho \"$mode $* home=$GEMINI_CLI_HOME key=$GEMINI_API_KEY\" >\"$GEMINI_WRITE_SYSTEM_MD\"\necho $$ >>" + filepath.Join(dir, "runs") + "\nexec sleep 60\n"
	if err := os.WriteFile(exe, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	s := geminiShape{Exe: exe, Cwd: dir, Home: "/real/home", Interactive: true, Flags: []string{"-y"}, Settings: "{}", CacheDir: filepath.Join(dir, "cache")}
	start := time.Now()
	got, err := geminiDefaultPrompt(s)
	want := "tty --fake-responses-non-strict " // then the fake file, the flags, the real home
	if err != nil || !strings.HasPrefix(got, want) || !strings.Contains(got, " -y home=/real/home key=ai-memory-dry-start") {
		t.Fatalf("prompt %q, %v", got, err)
	}
	if time.Since(start) > 20*time.Second {
		t.Errorf("dry start took %s: the hanging child was not killed", time.Since(start))
	}
	again, err := geminiDefaultPrompt(s)
	runs, _ := os.ReadFile(filepath.Join(dir, "runs"))
	if err != nil || again != got || strings.Count(string(runs), "\n") != 1 {
		t.Errorf("second call: %q %v, runs %q; want the cached prompt and one run", again, err, runs)
	}
	if ents, _ := os.ReadDir(s.CacheDir); len(ents) != 1 {
		t.Errorf("cache holds %d entries, want 1 (the scratch dir is removed)", len(ents))
	}
	s.Interactive = false
	if got, err := geminiDefaultPrompt(s); err != nil || !strings.HasPrefix(got, "tty -p ai-memory dry start --fake") {
		t.Errorf("print shape: %q %v", got, err)
	}
}
