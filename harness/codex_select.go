package harness

import "strings"

// codexSelection is what the user's own subcommand asks for.
type codexSelection struct {
	explicit bool   // resume, fork, or exec resume
	id       string // session id named after resume/fork
	resume   bool   // an existing session continues under id
	history  bool   // the session carries earlier history (resume or fork)
}

// codexSelector reads `resume [id]`, `fork [id]` and `exec resume [id]`. The
// id is the argument right after the subcommand unless it is an option.
func codexSelector(args []string, sub string, subIdx int) codexSelection {
	at := -1
	switch {
	case sub == "resume" || sub == "fork":
		at = subIdx
	case isExec(sub):
		if next, i := firstPositional(args, subIdx+1); next == "resume" {
			at = i
		}
	}
	if at < 0 || at >= optionsEnd(args) {
		return codexSelection{}
	}
	s := codexSelection{explicit: true, history: true}
	if at+1 < len(args) && !strings.HasPrefix(args[at+1], "-") && !hasFlag(args, "--last") {
		s.id = args[at+1]
	}
	s.resume = args[at] == "resume" && s.id != ""
	return s
}

// selectSession records the user's choice or injects the resume of the
// linked session. A fresh Codex session needs no flag: Codex makes the id
// and reports it only afterwards.
func (codex) selectSession(p *Plan, args []string, sel codexSelection, sub string, subIdx int, d Decision) []string {
	switch {
	case sel.explicit:
		if sel.resume {
			p.SessionID, p.Resume = sel.id, true
		}
		return args
	case d.Resume == "":
		return args
	}
	p.SessionID, p.Resume = d.Resume, true
	if !isExec(sub) {
		return insertAt(args, 0, "resume", d.Resume)
	}
	return insertAt(args, execResumePoint(args, subIdx), "resume", d.Resume)
}

// execResumePoint is where `resume <id>` goes in an exec command line: after
// exec's own options and before its prompt, so options that only exec
// accepts (--color, --output-schema, --sandbox) stay on exec.
func execResumePoint(args []string, execIdx int) int {
	if _, i := firstPositional(args, execIdx+1); i >= 0 && i < optionsEnd(args) {
		return i
	}
	return optionsEnd(args)
}
