package harness

import (
	"errors"
	"testing"
)

func TestAntigravityPlan(t *testing.T) {
	type want = noRouteWant
	const id = "0b7c7a52-1f9e-4a35-9d1c-51a3c4e1d2f0"
	s := func(a ...string) []string { return append([]string{}, a...) }
	tests := []struct {
		name string
		r    Request
		want want
	}{
		{"fresh TUI", Request{StdinTTY: true, NewSessionID: "n"}, want{args: s(), interactive: true}},
		{"fresh print", Request{Args: s("-p", "hi"), StdinTTY: true}, want{args: s("-p", "hi")}},
		{"linked resumes", Request{Args: s("-p", "hi"), LinkedSessionID: id},
			want{args: s("-p", "hi", "--conversation", id), session: id, resume: true}},
		{"linked TUI resumes", Request{LinkedSessionID: id, StdinTTY: true},
			want{args: s("--conversation", id), interactive: true, session: id, resume: true}},
		{"trailing bare -p keeps its stdin prompt", Request{Args: s("--model", "m", "-p"), LinkedSessionID: id, Yolo: true},
			want{args: s("--model", "m", "--conversation", id, "--dangerously-skip-permissions", "-p"), session: id, resume: true}},
		{"options stay before --", Request{Args: s("--print", "x", "--", "y"), LinkedSessionID: id},
			want{args: s("--print", "x", "--conversation", id, "--", "y"), session: id, resume: true}},
		{"-p swallows a flag-looking prompt", Request{Args: s("-p", "--continue"), LinkedSessionID: id},
			want{args: s("-p", "--continue", "--conversation", id), session: id, resume: true}},
		{"native --conversation", Request{Args: s("--conversation", id), LinkedSessionID: "l", StdinTTY: true},
			want{args: s("--conversation", id), interactive: true, explicit: true, explicitID: id, session: id, resume: true}},
		{"native --conversation=", Request{Args: s("--conversation="+id, "-p", "x"), LinkedSessionID: "l"},
			want{args: s("--conversation="+id, "-p", "x"), explicit: true, explicitID: id, session: id, resume: true}},
		{"native -c", Request{Args: s("-c"), LinkedSessionID: "l", StdinTTY: true},
			want{args: s("-c"), interactive: true, explicit: true}},
		{"yolo", Request{Args: s("-p", "x"), Yolo: true}, want{args: s("-p", "x", "--dangerously-skip-permissions")}},
		{"yolo not twice", Request{Args: s("--dangerously-skip-permissions", "-p", "x"), Yolo: true},
			want{args: s("--dangerously-skip-permissions", "-p", "x")}},
		{"packet: a notice, nothing delivered", Request{Args: s("-p", "x"), Packet: "PKT"},
			want{args: s("-p", "x"), notices: 1}},
		{"-i stays interactive", Request{Args: s("-i", "hello"), StdinTTY: true},
			want{args: s("-i", "hello"), interactive: true}},
		{"--version", Request{Args: s("--version")}, want{args: s("--version"), mode: ModePassthrough}},
		{"models behind --model", Request{Args: s("--model", "m", "models")}, want{args: s("--model", "m", "models"), mode: ModePassthrough}},
		{"a prompt named like a utility", Request{Args: s("-p", "update")}, want{args: s("-p", "update")}},
	}
	checkNoRoutePlans(t, antigravity{}, tests)
}

func TestAntigravityFreshWithSelector(t *testing.T) {
	for _, args := range [][]string{{"-c"}, {"--continue"}, {"--conversation", "x"}} {
		if _, err := planWith(antigravity{}, Request{Args: args, Fresh: true}); !errors.Is(err, ErrFreshWithSelector) {
			t.Errorf("Plan(%q, fresh) error = %v, want ErrFreshWithSelector", args, err)
		}
	}
}
