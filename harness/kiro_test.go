package harness

import (
	"errors"
	"testing"
)

func TestKiroPlan(t *testing.T) {
	type want = noRouteWant
	const id = "0b7c7a52-1f9e-4a35-9d1c-51a3c4e1d2f0"
	s := func(a ...string) []string { return append([]string{}, a...) }
	tests := []struct {
		name string
		r    Request
		want want
	}{
		{"fresh TUI", Request{StdinTTY: true, NewSessionID: "n"}, want{args: s(), interactive: true}},
		{"fresh print", Request{Args: s("chat", "--no-interactive", "hi"), StdinTTY: true},
			want{args: s("chat", "--no-interactive", "hi")}},
		{"linked v2 resumes", Request{Args: s("--no-interactive", "hi"), LinkedSessionID: id},
			want{args: s("--no-interactive", "hi", "--resume-id", id), session: id, resume: true}},
		{"linked v3 resumes with --v3", Request{Args: s("chat", "x"), LinkedSessionID: "sess_" + id},
			want{args: s("chat", "--v3", "x", "--resume-id", "sess_"+id), session: "sess_" + id, resume: true}},
		{"native --resume-id", Request{Args: s("--resume-id", id), LinkedSessionID: "l", StdinTTY: true},
			want{args: s("--resume-id", id), interactive: true, explicit: true, explicitID: id, session: id, resume: true}},
		{"native --resume", Request{Args: s("-r"), LinkedSessionID: "l", StdinTTY: true},
			want{args: s("-r"), interactive: true, explicit: true}},
		{"yolo", Request{Args: s("--no-interactive", "x"), Yolo: true},
			want{args: s("--no-interactive", "x", "--trust-all-tools")}},
		{"narrower trust not widened", Request{Args: s("--trust-tools", "fs_read"), Yolo: true},
			want{args: s("--trust-tools", "fs_read")}},
		{"v3 yolo: a notice", Request{Args: s("--v3"), Yolo: true, StdinTTY: true},
			want{args: s("--v3"), interactive: true, notices: 1}},
		{"packet: a notice, nothing delivered", Request{Args: s("--no-interactive", "x"), Packet: "PKT"},
			want{args: s("--no-interactive", "x"), notices: 1}},
		{"-V", Request{Args: s("-V")}, want{args: s("-V"), mode: ModePassthrough}},
		{"-v is verbose", Request{Args: s("-v", "--no-interactive", "x")}, want{args: s("-v", "--no-interactive", "x")}},
		{"--list-sessions", Request{Args: s("chat", "--list-sessions")}, want{args: s("chat", "--list-sessions"), mode: ModePassthrough}},
		{"mcp behind --agent", Request{Args: s("--agent", "a", "mcp", "list")}, want{args: s("--agent", "a", "mcp", "list"), mode: ModePassthrough}},
	}
	checkNoRoutePlans(t, kiro{}, tests)
}

func TestKiroFreshWithSelector(t *testing.T) {
	for _, args := range [][]string{{"--resume"}, {"-r"}, {"--resume-id", "x"}, {"--resume-picker"}} {
		if _, err := planWith(kiro{}, Request{Args: args, Fresh: true}); !errors.Is(err, ErrFreshWithSelector) {
			t.Errorf("Plan(%q, fresh) error = %v, want ErrFreshWithSelector", args, err)
		}
	}
}
