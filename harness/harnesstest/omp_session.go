package harnesstest

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ai-memory/ai-memory/transcript"
	"github.com/google/uuid"
)

// ompTitleSlot is the length of OMP's line-1 title record, padded so that
// it can be rewritten in place.
const ompTitleSlot = 256

// ompRun is one session of the fake OMP.
type ompRun struct {
	inv     invocation
	k       knobs
	a       ompArgs
	dir     string
	id      string
	path    string
	w       *jsonlWriter
	last    string
	titled  bool
	context string
}

func (r *ompRun) run() error {
	home, _ := filepath.EvalSymlinks(r.inv.getenv("HOME"))
	tmp := r.inv.getenv("TMPDIR")
	if tmp == "" {
		tmp = os.TempDir()
	}
	tmp, _ = filepath.EvalSymlinks(strings.TrimRight(tmp, "/"))
	r.dir = filepath.Join(OmpAgentDir(r.inv.getenv), "sessions", transcript.OmpProjectDir(r.inv.cwd, home, tmp))
	if !r.a.print && !r.inv.stdinTTY {
		r.a.print = true // OMP runs one-shot when stdin is not a terminal
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
	r.context = r.appended()
	if r.a.print {
		fmt.Fprintln(r.inv.stdout, r.turn(prompt))
		return r.exit()
	}
	if len(r.a.messages) > 0 {
		fmt.Fprintln(r.inv.stdout, r.turn(strings.Join(r.a.messages, " ")))
	}
	if err := promptLoop(r.inv, []string{"/quit", "/exit"}, func(p string) (string, error) { return r.turn(p), r.w.err }); err != nil {
		return err
	}
	fmt.Fprintf(r.inv.stdout, "Resume this session with omp --resume %s\n", r.id)
	return r.exit()
}

// exit writes the session_exit entry OMP appends on every process exit.
func (r *ompRun) exit() error {
	r.entry("custom", map[string]any{"customType": "session_exit", "data": map[string]any{"reason": "dispose", "kind": "normal"}})
	return r.w.close()
}

// openSession: --resume <path|id|prefix>, --fork, --continue, else new.
func (r *ompRun) openSession() error {
	switch {
	case r.a.resume != "":
		v := r.a.resume
		if strings.ContainsAny(v, `/\`) || strings.HasSuffix(v, ".jsonl") {
			if _, err := os.Stat(v); err == nil {
				return r.open(v)
			}
			return r.create(v)
		}
		for _, f := range r.here() {
			if id := ompHeaderID(f); strings.HasPrefix(id, v) {
				return r.open(f)
			}
		}
		return piExit{1, fmt.Sprintf("Session %q not found.", v)}
	case r.a.fork != "":
		return piExit{1, "fake omp: --fork is not imitated"}
	case r.a.cont || r.a.resumeGiven:
		if files := r.here(); len(files) > 0 {
			return r.open(files[0])
		}
	}
	return r.create("")
}

// here lists this folder's session files, newest first.
func (r *ompRun) here() []string {
	files, _ := filepath.Glob(filepath.Join(r.dir, "*.jsonl"))
	sort.Slice(files, func(i, j int) bool { return modTime(files[i]) > modTime(files[j]) })
	return files
}

// create starts a session: the title slot, the header, the model and
// thinking-level entries.
func (r *ompRun) create(path string) error {
	id, err := uuid.NewV7()
	if err != nil {
		return fmt.Errorf("new session id: %w", err)
	}
	r.id = id.String()
	if path == "" {
		stamp := strings.NewReplacer(":", "-", ".", "-").Replace(r.stamp())
		path = filepath.Join(r.dir, stamp+"_"+r.id+".jsonl")
	}
	w, err := openJSONL(path, r.inv, r.k)
	if err != nil {
		return err
	}
	r.w, r.path = w, path
	r.w.write(json.RawMessage(ompTitle("")))
	r.w.write(map[string]any{"type": "session", "version": 3, "id": r.id, "timestamp": r.stamp(), "cwd": r.inv.cwd})
	r.entry("model_change", map[string]any{"model": "mock/mock-model", "resolvedModelIsFallback": false})
	r.entry("thinking_level_change", map[string]any{"thinkingLevel": nil, "configured": nil})
	return nil
}

// open appends to an existing session file.
func (r *ompRun) open(path string) error {
	r.path, r.id = path, ompHeaderID(path)
	for _, rec := range readRecords(path) {
		if id, _ := rec["id"].(string); id != "" && rec["type"] != "session" {
			r.last = id
		}
		if t, _ := rec["title"].(string); rec["type"] == "title" && t != "" {
			r.titled = true
		}
	}
	w, err := openJSONL(path, r.inv, r.k)
	r.w = w
	return err
}

// ompTitle is the title record padded to the slot's length.
func ompTitle(title string) string {
	rec, _ := json.Marshal(map[string]any{"type": "title", "v": 1, "title": title, "source": "auto"})
	pad := ompTitleSlot - len(rec) - len(`,"pad":""`)
	if pad < 0 {
		pad = 0
	}
	return strings.TrimSuffix(string(rec), "}") + `,"pad":"` + strings.Repeat(" ", pad) + `"}`
}

// retitle rewrites the title slot in place, as OMP does after the first
// turn.
func (r *ompRun) retitle(title string) {
	line := ompTitle(truncRunes(title, 60))
	if len(line) != ompTitleSlot {
		return
	}
	f, err := os.OpenFile(r.path, os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.WriteAt([]byte(line), 0)
	r.titled = true
}

func ompHeaderID(path string) string {
	for i, rec := range readRecords(path) {
		if rec["type"] == "session" {
			id, _ := rec["id"].(string)
			return id
		}
		if i > 2 {
			break
		}
	}
	return ""
}

func (r *ompRun) stamp() string { return r.inv.now().UTC().Format("2006-01-02T15:04:05.000Z") }

// entry appends one tree entry linked to the current leaf.
func (r *ompRun) entry(typ string, fields map[string]any) {
	b := uuid.New()
	id := hex.EncodeToString(b[:4])
	rec := map[string]any{"type": typ, "id": id, "timestamp": r.stamp()}
	if r.last == "" {
		rec["parentId"] = nil
	} else {
		rec["parentId"] = r.last
	}
	for k, v := range fields {
		rec[k] = v
	}
	r.w.write(rec)
	r.last = id
}

func (r *ompRun) message(m map[string]any) {
	m["timestamp"] = r.inv.now().UnixMilli()
	r.entry("message", map[string]any{"message": m})
}

// turn writes one user turn and returns the reply; RUN_TOOL makes one bash
// call first (OMP's bash tool appends the wall time to the output).
func (r *ompRun) turn(prompt string) string {
	r.message(map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": prompt}}, "attribution": "user"})
	output := ""
	if wantsTool(prompt) {
		callID := "call_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:24]
		args := map[string]any{"command": "echo hello", "i": "."}
		r.message(map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "toolCall", "id": callID, "name": "bash", "arguments": args}},
			"api": "openai-completions", "provider": "mock", "model": "mock-model", "stopReason": "toolUse"})
		r.entry("custom", map[string]any{"customType": "tool_execution_start", "data": map[string]any{"toolCallId": callID, "toolName": "bash", "args": args}})
		r.message(map[string]any{"role": "toolResult", "toolCallId": callID, "toolName": "bash",
			"content": []any{map[string]any{"type": "text", "text": "hello\n\n\nWall time: 0.01 seconds"}}, "isError": false})
		output = "hello"
	}
	reply := replyFor(prompt, output)
	r.message(map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": reply}},
		"api": "openai-completions", "provider": "mock", "model": "mock-model", "stopReason": "stop"})
	if !r.titled {
		r.entry("title_change", map[string]any{"title": reply, "source": "auto"})
		r.retitle(reply)
	}
	return reply
}
