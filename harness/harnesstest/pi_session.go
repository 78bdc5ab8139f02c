package harnesstest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/google/uuid"
)

// piRun is one session of the fake Pi.
type piRun struct {
	inv       invocation
	k         knobs
	a         piArgs
	old       bool // before 0.76: no --session-id, no system records
	dir       string
	flat      bool
	id        string
	path      string
	w         *jsonlWriter
	last      string // id of the last entry (the leaf)
	addend    string // addendum recorded in the session so far
	context   string
	sawSystem bool // the session holds a system-prompt record
}

// run resolves the session, then answers the print prompt or runs the
// prompt loop.
func (r *piRun) run() error {
	r.sessionsDir()
	if !r.a.print && !r.inv.stdinTTY {
		return piExit{1, "Error: interactive mode needs a terminal; use -p for print mode"}
	}
	var prompt string
	if r.a.print {
		p, err := r.printPrompt()
		if err != nil {
			return err
		}
		prompt = p
	}
	if err := r.openSession(); err != nil {
		return err
	}
	defer r.w.close()
	r.context = r.appendedPrompt()
	if r.a.print {
		fmt.Fprintln(r.inv.stdout, r.turn(prompt))
		return r.w.close()
	}
	if len(r.a.messages) > 0 {
		fmt.Fprintln(r.inv.stdout, r.turn(strings.Join(r.a.messages, " ")))
	}
	if err := promptLoop(r.inv, []string{"/quit", "/exit"}, func(p string) (string, error) { return r.turn(p), r.w.err }); err != nil {
		return err
	}
	if !r.old {
		fmt.Fprintf(r.inv.stdout, "To resume this session:\npi --session %s\n", r.id)
	}
	return r.w.close()
}

// sessionsDir is --session-dir, PI_CODING_AGENT_SESSION_DIR (both flat), or
// <agent dir>/sessions/--<cwd>--.
func (r *piRun) sessionsDir() {
	if d := r.a.sessionDir; d != "" {
		r.dir, r.flat = d, true
		return
	}
	if d := r.inv.getenv("PI_CODING_AGENT_SESSION_DIR"); d != "" {
		r.dir, r.flat = d, true
		return
	}
	agent := r.inv.getenv("PI_CODING_AGENT_DIR")
	if agent == "" {
		agent = filepath.Join(r.inv.getenv("HOME"), ".pi", "agent")
	}
	r.dir = filepath.Join(agent, "sessions", PiFoldCwd(r.inv.cwd))
}

// PiFoldCwd is Pi's session folder name for a working directory.
func PiFoldCwd(cwd string) string {
	c := strings.TrimLeft(cwd, `/\`)
	return "--" + strings.NewReplacer("/", "-", `\`, "-", ":", "-").Replace(c) + "--"
}

// openSession picks the session file like Pi: --session-id (resume in this
// cwd, else create with that id), --session (path, or id prefix), --fork,
// --continue, --resume (the newest here, as the picker would offer
// first), else a new uuidv7 session.
func (r *piRun) openSession() error {
	switch {
	case r.a.sessionID != "":
		if p := r.findHere(r.a.sessionID, true); p != "" {
			return r.open(p)
		}
		fmt.Fprintf(r.inv.stderr, "Warning: No project session found with id '%s'; creating a new session with that id.\n", r.a.sessionID)
		return r.create(r.a.sessionID, "")
	case r.a.session != "":
		return r.openNamed(r.a.session)
	case r.a.fork != "":
		return r.forkFrom(r.a.fork)
	case r.a.cont || r.a.resume:
		if files := r.here(); len(files) > 0 {
			return r.open(files[0])
		}
	}
	id, err := uuid.NewV7()
	if err != nil {
		return fmt.Errorf("new session id: %w", err)
	}
	return r.create(id.String(), "")
}

// openNamed resolves --session <path|id prefix>.
func (r *piRun) openNamed(v string) error {
	if strings.ContainsAny(v, `/\`) || strings.HasSuffix(v, ".jsonl") {
		if _, err := os.Stat(v); err == nil {
			return r.open(v)
		}
		id, _ := uuid.NewV7()
		r.path = v
		return r.createAt(v, id.String(), "")
	}
	if p := r.findHere(v, false); p != "" {
		return r.open(p)
	}
	if r.findAnywhere(v) {
		fmt.Fprintf(r.inv.stdout, "Session found in different project: %s. Fork this session into current directory? [y/N] ", v)
		return piExit{0, ""}
	}
	return piExit{1, fmt.Sprintf("No session found matching '%s'", v)}
}

// here lists this cwd's session files, newest first.
func (r *piRun) here() []string {
	files, _ := filepath.Glob(filepath.Join(r.dir, "*.jsonl"))
	var out []string
	for _, f := range files {
		if id, cwd := piHeaderOf(f); id != "" && cwd == r.inv.cwd {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return modTime(out[i]) > modTime(out[j]) })
	return out
}

// findHere returns this cwd's session whose id is id (or starts with it).
func (r *piRun) findHere(id string, exact bool) string {
	for _, f := range r.here() {
		got, _ := piHeaderOf(f)
		if got == id || (!exact && strings.HasPrefix(got, id)) {
			return f
		}
	}
	return ""
}

func (r *piRun) findAnywhere(id string) bool {
	root := filepath.Dir(r.dir)
	files, _ := filepath.Glob(filepath.Join(root, "*", "*.jsonl"))
	for _, f := range files {
		if got, _ := piHeaderOf(f); strings.HasPrefix(got, id) {
			return true
		}
	}
	return false
}

// forkFrom copies the named session's entries into a new session.
func (r *piRun) forkFrom(v string) error {
	src := v
	if !strings.ContainsAny(v, `/\`) {
		src = r.findHere(v, false)
	}
	data, err := os.ReadFile(src)
	if src == "" || err != nil {
		return piExit{1, fmt.Sprintf("No session found matching '%s'", v)}
	}
	id, _ := uuid.NewV7()
	if err := r.create(id.String(), src); err != nil {
		return err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) == nil {
			r.w.write(rec)
			r.last, _ = rec["id"].(string)
		}
	}
	return nil
}

// create starts a session file named <time>_<id>.jsonl in the folder.
func (r *piRun) create(id, parent string) error {
	name := strings.NewReplacer(":", "-", ".", "-").Replace(r.inv.now().UTC().Format("2006-01-02T15:04:05.000Z")) + "_" + id + ".jsonl"
	return r.createAt(filepath.Join(r.dir, name), id, parent)
}

func (r *piRun) createAt(path, id, parent string) error {
	w, err := openJSONL(path, r.inv, r.k)
	if err != nil {
		return err
	}
	r.w, r.path, r.id = w, path, id
	h := map[string]any{"type": "session", "version": 3, "id": id, "timestamp": r.stamp(), "cwd": r.inv.cwd}
	if parent != "" {
		h["parentSession"] = parent
	}
	r.w.write(h)
	r.entry("model_change", map[string]any{"provider": "mock", "modelId": "mock-model"})
	r.entry("thinking_level_change", map[string]any{"thinkingLevel": "off"})
	return nil
}

// open appends to an existing session; the leaf and the recorded addendum
// come from its entries.
func (r *piRun) open(path string) error {
	r.path = path
	r.id, _ = piHeaderOf(path)
	if f, err := os.Open(path); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64*1024), 16<<20)
		for sc.Scan() {
			var rec struct {
				ID      string
				Message struct {
					Role     string
					Sections map[string]*string
				}
			}
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.ID != "" {
				r.last = rec.ID
				if rec.Message.Role == "system" {
					r.sawSystem = true
				}
				if a, ok := rec.Message.Sections["addendum"]; ok && rec.Message.Role == "system" {
					r.addend = ""
					if a != nil {
						r.addend = *a
					}
				}
			}
		}
		f.Close()
	}
	w, err := openJSONL(path, r.inv, r.k)
	r.w = w
	return err
}

// piHeaderOf reads the id and cwd of a session file's header.
func piHeaderOf(path string) (id, cwd string) {
	f, err := os.Open(path)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	if !sc.Scan() {
		return "", ""
	}
	var h struct{ Type, ID, Cwd string }
	if json.Unmarshal(sc.Bytes(), &h) != nil || h.Type != "session" {
		return "", ""
	}
	return h.ID, h.Cwd
}
