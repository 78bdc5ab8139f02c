package harnesstest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/google/uuid"
)

var uuidRx = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// qwenRun is one session of the fake Qwen Code.
type qwenRun struct {
	inv     invocation
	k       knobs
	a       qwenArgs
	dir     string // the project's chats directory
	id      string
	w       *jsonlWriter
	last    string // uuid of the last record (the parent of the next)
	context string
}

// run resolves the session, then answers the one-shot prompt or runs the
// prompt loop.
func (r *qwenRun) run() error {
	r.dir = filepath.Join(QwenRoot(r.inv.getenv), "projects", FoldCwd(r.inv.cwd), "chats")
	prompt := r.a.oneShot()
	print := prompt != "" || !r.inv.stdinTTY
	if print {
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
	if len(r.a.appends) > 0 {
		r.context = r.a.appends[0] // literal text: Qwen reads no file
	}
	if print {
		fmt.Fprintln(r.inv.stdout, r.turn(prompt))
		return r.w.close()
	}
	if p := r.a.interactivePrompt; p != "" {
		fmt.Fprintln(r.inv.stdout, r.turn(p))
	}
	if err := promptLoop(r.inv, []string{"/quit", "/exit"}, func(p string) (string, error) { return r.turn(p), r.w.err }); err != nil {
		return err
	}
	fmt.Fprintf(r.inv.stdout, "To continue this session, run\nqwen --resume %s\n", r.id)
	return r.w.close()
}

// QwenRoot is Qwen's runtime directory: $QWEN_RUNTIME_DIR, else
// $QWEN_HOME, else ~/.qwen.
func QwenRoot(getenv func(string) string) string {
	for _, k := range []string{"QWEN_RUNTIME_DIR", "QWEN_HOME"} {
		if v := getenv(k); v != "" {
			return v
		}
	}
	return filepath.Join(getenv("HOME"), ".qwen")
}

// openSession picks the chat file like Qwen: --session-id creates (an
// existing id is an error), -r <id> resumes one of this project's chats,
// -c and a bare -r take the newest (the picker's first entry), else a new
// random id. --fork-session copies the chosen chat under a new id.
func (r *qwenRun) openSession() error {
	switch {
	case r.a.sessionID != "":
		if _, err := os.Stat(r.path(r.a.sessionID)); err == nil {
			return qwenExit{1, fmt.Sprintf("Error: Session Id %s already exists (active or archived). Delete or unarchive it first.", r.a.sessionID)}
		}
		return r.open(strings.ToLower(r.a.sessionID), "")
	case r.a.resume != "":
		if _, err := os.Stat(r.path(r.a.resume)); err != nil {
			return qwenExit{1, fmt.Sprintf("No saved session found with ID %s. Run `qwen --resume` without an ID to choose from existing sessions.", r.a.resume)}
		}
		return r.resumeFrom(r.a.resume)
	case r.a.cont || r.a.resumeGiven:
		if files := r.newestFirst(); len(files) > 0 {
			return r.resumeFrom(strings.TrimSuffix(filepath.Base(files[0]), ".jsonl"))
		}
	}
	return r.open(uuid.NewString(), "")
}

func (r *qwenRun) path(id string) string { return filepath.Join(r.dir, id+".jsonl") }

// resumeFrom appends to the chat id, or to a fork of it.
func (r *qwenRun) resumeFrom(id string) error {
	if r.a.fork {
		return r.open(uuid.NewString(), r.path(id))
	}
	return r.open(id, "")
}

// open appends to <id>.jsonl (created 0600 under 0700 dirs), after copying
// the records of from, if any, re-keyed to the new session.
func (r *qwenRun) open(id, from string) error {
	w, err := openJSONL(r.path(id), r.inv, r.k)
	if err != nil {
		return err
	}
	r.w, r.id = w, id
	for _, rec := range readRecords(r.path(id)) {
		r.last, _ = rec["uuid"].(string)
	}
	for _, rec := range readRecords(from) {
		rec["sessionId"] = id
		r.w.write(rec)
		r.last, _ = rec["uuid"].(string)
	}
	return nil
}

// newestFirst lists this project's chat files, newest first.
func (r *qwenRun) newestFirst() []string {
	files, _ := filepath.Glob(filepath.Join(r.dir, "*.jsonl"))
	sort.Slice(files, func(i, j int) bool { return modTime(files[i]) > modTime(files[j]) })
	return files
}

// readRecords decodes every complete record of a JSONL file.
func readRecords(path string) []map[string]any {
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		var rec map[string]any
		if json.Unmarshal(sc.Bytes(), &rec) == nil {
			out = append(out, rec)
		}
	}
	return out
}
