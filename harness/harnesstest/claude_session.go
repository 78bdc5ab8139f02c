package harnesstest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/google/uuid"
)

// projectDir is where Claude keeps the transcripts of the working directory.
func (r *claudeRun) projectDir() string {
	return filepath.Join(r.store, "projects", FoldCwd(r.inv.cwd))
}

// resolveSession applies Claude's rules for --session-id, --resume,
// --continue and --fork-session, with the real CLI's error messages.
func (r *claudeRun) resolveSession() error {
	a := r.a
	if a.sessionID != "" {
		if _, err := uuid.Parse(a.sessionID); err != nil {
			return claudeExit{1, "Error: Invalid session ID. Must be a valid UUID."}
		}
		if (a.resume || a.cont) && !a.fork {
			return claudeExit{1, "Error: --session-id can only be used with --continue or --resume if --fork-session is also specified."}
		}
	}
	switch {
	case a.resume && a.resumeID == "":
		return claudeExit{1, "Error: --resume without a session id opens a picker, which needs a terminal"}
	case a.resume:
		return r.resumeFrom(r.findSession(a.resumeID), a.resumeID)
	case a.cont:
		return r.resumeFrom(r.newestSession(), "")
	}
	r.source = "startup"
	r.sessionID = a.sessionID
	if r.sessionID == "" {
		r.sessionID = uuid.NewString()
	}
	r.path = filepath.Join(r.projectDir(), r.sessionID+".jsonl")
	if _, err := os.Stat(r.path); err == nil {
		return claudeExit{1, fmt.Sprintf("Error: Session ID %s is already in use.", r.sessionID)}
	}
	return nil
}

// resumeFrom continues the transcript at src, or copies it into a new
// session with --fork-session.
func (r *claudeRun) resumeFrom(src, id string) error {
	if src == "" && id != "" {
		return claudeExit{1, "No conversation found with session ID: " + id}
	}
	if src == "" {
		return claudeExit{1, "No conversation found to continue"}
	}
	r.source = "resume"
	if !r.a.fork {
		r.path = src
		r.sessionID = trimExt(filepath.Base(src))
		r.parent = lastUUID(src)
		return nil
	}
	r.sessionID = r.a.sessionID
	if r.sessionID == "" {
		r.sessionID = uuid.NewString()
	}
	r.path = filepath.Join(r.projectDir(), r.sessionID+".jsonl")
	return r.copyForFork(src)
}

// findSession looks for <id>.jsonl in this project, then in every project.
func (r *claudeRun) findSession(id string) string {
	if _, err := uuid.Parse(id); err != nil {
		return ""
	}
	p := filepath.Join(r.projectDir(), id+".jsonl")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	matches, _ := filepath.Glob(filepath.Join(r.store, "projects", "*", id+".jsonl"))
	if len(matches) > 0 {
		return matches[0]
	}
	return ""
}

// newestSession is the most recently written transcript of this project.
func (r *claudeRun) newestSession() string {
	matches, _ := filepath.Glob(filepath.Join(r.projectDir(), "*.jsonl"))
	sort.Slice(matches, func(i, j int) bool { return modTime(matches[i]) > modTime(matches[j]) })
	if len(matches) == 0 {
		return ""
	}
	return matches[0]
}

func modTime(p string) int64 {
	info, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return info.ModTime().UnixNano()
}

func trimExt(name string) string { return name[:len(name)-len(filepath.Ext(name))] }

// lastUUID returns the uuid of the last record of a transcript that has one.
func lastUUID(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	last := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		var rec struct{ UUID string }
		if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.UUID != "" {
			last = rec.UUID
		}
	}
	return last
}

// copyForFork writes the conversation records of src into the new
// session's transcript under the new session id.
func (r *claudeRun) copyForFork(src string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("read session to fork: %w", err)
	}
	w, err := openJSONL(r.path, r.inv, knobs{})
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		var rec map[string]any
		if json.Unmarshal(sc.Bytes(), &rec) != nil || rec["uuid"] == nil {
			continue
		}
		rec["sessionId"] = r.sessionID
		r.parent, _ = rec["uuid"].(string)
		w.write(rec)
	}
	return errors.Join(sc.Err(), w.close())
}

// openTranscript opens the session's transcript for appending, unless
// --no-session-persistence keeps it in memory (here: /dev/null).
func (r *claudeRun) openTranscript() error {
	path := r.path
	if r.a.noPersist {
		path = os.DevNull
	}
	w, err := openJSONL(path, r.inv, r.k)
	r.w = w
	return err
}
