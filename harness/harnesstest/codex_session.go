package harnesstest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/google/uuid"
)

// openSession creates, resumes or forks the rollout and works out what
// extra text reaches the model, the way Codex 0.171 does: developer
// instructions only on a fresh session, model_instructions_file always
// (replacing the base instructions).
func (r *codexRun) openSession() error {
	resuming := r.a.sub == "resume" || r.a.execResume
	switch {
	case resuming:
		return r.resume()
	case r.a.sub == "fork":
		return r.fork()
	}
	return r.fresh()
}

// fresh starts a new rollout with its header records.
func (r *codexRun) fresh() error {
	if err := r.newRollout(); err != nil {
		return err
	}
	r.base = codexDefaultBase
	if r.instFile != "" {
		r.base = r.instFile
		r.noteInstructionsFile(codexDefaultBase)
	}
	r.meta("")
	r.header()
	if r.devInstr != "" {
		r.context = joinContext(r.context, r.devInstr)
	}
	return nil
}

// resume appends to an existing rollout; developer_instructions is ignored.
func (r *codexRun) resume() error {
	src, err := r.findRollout()
	if err != nil {
		return err
	}
	r.path, r.base = src, recordedBase(src)
	r.id = rolloutID(src)
	if r.instFile != "" {
		r.noteInstructionsFile(r.base)
	}
	w, err := openJSONL(r.path, r.inv, r.k)
	r.w = w
	return err
}

// fork copies the source's conversation into a new rollout.
func (r *codexRun) fork() error {
	src, err := r.findRollout()
	if err != nil {
		return err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("read session to fork: %w", err)
	}
	if err := r.newRollout(); err != nil {
		return err
	}
	r.base = recordedBase(src)
	if r.instFile != "" {
		r.noteInstructionsFile(r.base)
	}
	r.meta(rolloutID(src))
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		var rec map[string]any
		if json.Unmarshal(sc.Bytes(), &rec) == nil && rec["type"] == "response_item" {
			r.w.write(rec)
		}
	}
	return sc.Err()
}

// noteInstructionsFile records the model_instructions_file text as context,
// minus the base instructions it was meant to keep, and whether it kept them.
func (r *codexRun) noteInstructionsFile(original string) {
	kept := strings.HasPrefix(r.instFile, original)
	r.baseKept = &kept
	extra := r.instFile
	if kept {
		extra = strings.TrimLeft(strings.TrimPrefix(r.instFile, original), "\n")
	}
	r.context = joinContext(r.context, extra)
}

func joinContext(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}

// newRollout names a new session file: sessions/YYYY/MM/DD/
// rollout-<local time>-<uuidv7>.jsonl.
func (r *codexRun) newRollout() error {
	id, err := uuid.NewV7()
	if err != nil {
		return fmt.Errorf("new session id: %w", err)
	}
	now := r.inv.now().Local()
	r.id = id.String()
	r.path = filepath.Join(r.store, "sessions", now.Format("2006"), now.Format("01"), now.Format("02"),
		"rollout-"+now.Format("2006-01-02T15-04-05")+"-"+r.id+".jsonl")
	w, err := openJSONL(r.path, r.inv, r.k)
	r.w = w
	return err
}

// findRollout locates the session named by resume/fork, or the newest
// one for --last.
func (r *codexRun) findRollout() (string, error) {
	all, _ := filepath.Glob(filepath.Join(r.store, "sessions", "*", "*", "*", "rollout-*.jsonl"))
	if r.a.last {
		sort.Slice(all, func(i, j int) bool { return modTime(all[i]) > modTime(all[j]) })
		if len(all) > 0 {
			return all[0], nil
		}
		return "", codexExit{1, "Error: No saved sessions found."}
	}
	if r.a.sessionID == "" {
		return "", codexExit{1, "Error: the session picker needs a terminal; pass a session id or --last"}
	}
	for _, p := range all {
		if rolloutID(p) == r.a.sessionID {
			return p, nil
		}
	}
	return "", codexExit{1, fmt.Sprintf("Error: No saved session found with ID %s. Run `codex resume` without an ID to choose from existing sessions.", r.a.sessionID)}
}

// rolloutID is the uuid at the end of a rollout file name.
func rolloutID(path string) string {
	name := trimExt(filepath.Base(path))
	if len(name) < 36 {
		return ""
	}
	return name[len(name)-36:]
}

// recordedBase reads session_meta.payload.base_instructions.text.
func recordedBase(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	if !sc.Scan() {
		return ""
	}
	var rec struct {
		Type    string
		Payload struct {
			BaseInstructions struct{ Text string } `json:"base_instructions"`
		}
	}
	if err := json.Unmarshal(sc.Bytes(), &rec); err != nil || rec.Type != "session_meta" {
		return ""
	}
	return rec.Payload.BaseInstructions.Text
}
