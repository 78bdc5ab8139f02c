package harnesstest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/google/uuid"
)

// copilotRun is one run of the fake Copilot: one session directory
// <COPILOT_HOME or ~/.copilot>/session-state/<uuid>/ with events.jsonl and
// workspace.yaml, like 1.0.102.
type copilotRun struct {
	inv     invocation
	k       knobs
	a       copilotArgs
	state   string
	id      string
	w       *jsonlWriter
	last    string // id of the last event (the next parentId)
	context string
	system  bool // this run wrote its system.message
}

var copilotUUIDRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

func (r *copilotRun) run() error {
	home := r.inv.getenv("COPILOT_HOME")
	if home == "" {
		home = filepath.Join(r.inv.getenv("HOME"), ".copilot")
	}
	r.state = filepath.Join(home, "session-state")
	prompt, print, err := r.printPrompt()
	if err != nil {
		return err
	}
	if err := r.openSession(); err != nil {
		return err
	}
	defer r.w.close()
	r.context = r.instructions()
	if print {
		fmt.Fprintln(r.inv.stdout, r.turn(prompt))
		r.event("session.shutdown", map[string]any{"shutdownType": "routine"})
		return r.w.close()
	}
	if r.a.interactive != "" {
		fmt.Fprintln(r.inv.stdout, r.turn(r.a.interactive))
	}
	err = promptLoop(r.inv, []string{"/exit", "/quit"}, func(p string) (string, error) { return r.turn(p), r.w.err })
	if err != nil {
		return err
	}
	r.event("session.shutdown", map[string]any{"shutdownType": "routine"})
	fmt.Fprintf(r.inv.stdout, "Resume copilot --resume=%s\n", r.id)
	return r.w.close()
}

// openSession picks the session like Copilot: --session-id (resume that id,
// else create it; it must be a UUID), --resume[=id|prefix] (bare: the
// picker, whose first entry is the newest session here), --continue (the
// newest here), else a new one.
func (r *copilotRun) openSession() error {
	switch {
	case r.a.sessionID != "":
		if r.exists(r.a.sessionID) {
			return r.open(r.a.sessionID)
		}
		if !copilotUUIDRE.MatchString(r.a.sessionID) {
			return copilotExit{1, fmt.Sprintf("No session or task matched '%s'. The value is not a valid UUID, so a new session cannot be created.", r.a.sessionID)}
		}
		return r.create(r.a.sessionID)
	case r.a.hasResume && r.a.resume != "":
		id, err := r.match(r.a.resume)
		if err != nil {
			return err
		}
		return r.open(id)
	case r.a.hasResume || r.a.cont:
		if ids := r.here(); len(ids) > 0 {
			return r.open(ids[0])
		}
	}
	return r.create(uuid.NewString())
}

func (r *copilotRun) events(id string) string { return filepath.Join(r.state, id, "events.jsonl") }

func (r *copilotRun) exists(id string) bool {
	st, err := os.Stat(r.events(id))
	return err == nil && st.Mode().IsRegular()
}

// match resolves a full id or a prefix of 7+ characters.
func (r *copilotRun) match(v string) (string, error) {
	if r.exists(v) {
		return v, nil
	}
	ents, _ := os.ReadDir(r.state)
	for _, e := range ents {
		if len(v) >= 7 && strings.HasPrefix(e.Name(), v) && r.exists(e.Name()) {
			return e.Name(), nil
		}
	}
	return "", copilotExit{1, fmt.Sprintf("No session or task matched '%s'.", v)}
}

// here lists the ids of this cwd's sessions, newest first.
func (r *copilotRun) here() []string {
	ents, _ := os.ReadDir(r.state)
	var ids []string
	for _, e := range ents {
		if r.exists(e.Name()) && copilotCwdOf(r.events(e.Name())) == r.inv.cwd {
			ids = append(ids, e.Name())
		}
	}
	sort.Slice(ids, func(i, j int) bool { return modTime(r.events(ids[i])) > modTime(r.events(ids[j])) })
	return ids
}

// copilotCwdOf reads data.context.cwd of the first event.
func copilotCwdOf(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	if !sc.Scan() {
		return ""
	}
	var e struct {
		Data struct{ Context struct{ Cwd string } }
	}
	_ = json.Unmarshal(sc.Bytes(), &e)
	return e.Data.Context.Cwd
}

func (r *copilotRun) create(id string) error {
	dir := filepath.Join(r.state, id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create session dir: %w", err)
	}
	yaml := fmt.Sprintf("id: %s\ncwd: %s\nclient_name: github/cli\ncreated_at: %s\n", id, r.inv.cwd, r.stamp())
	if err := os.WriteFile(filepath.Join(dir, "workspace.yaml"), []byte(yaml), 0o600); err != nil {
		return fmt.Errorf("write workspace.yaml: %w", err)
	}
	w, err := openJSONL(r.events(id), r.inv, r.k)
	if err != nil {
		return err
	}
	r.w, r.id = w, id
	r.event("session.start", map[string]any{"sessionId": id, "version": 1, "producer": "copilot-agent",
		"copilotVersion": CopilotVersion, "selectedModel": "mock-model", "context": map[string]any{"cwd": r.inv.cwd}})
	return nil
}

func (r *copilotRun) open(id string) error {
	data, err := os.ReadFile(r.events(id))
	if err != nil {
		return fmt.Errorf("read session: %w", err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var last struct{ ID string }
	_ = json.Unmarshal([]byte(lines[len(lines)-1]), &last)
	w, err := openJSONL(r.events(id), r.inv, r.k)
	if err != nil {
		return err
	}
	r.w, r.id, r.last = w, id, last.ID
	r.event("session.resume", map[string]any{"eventCount": len(lines), "selectedModel": "mock-model",
		"context": map[string]any{"cwd": r.inv.cwd}})
	return nil
}

// instructions is the text of every *.instructions.md under the
// directories of COPILOT_CUSTOM_INSTRUCTIONS_DIRS (comma-separated).
func (r *copilotRun) instructions() string {
	var parts []string
	for _, dir := range strings.Split(r.inv.getenv("COPILOT_CUSTOM_INSTRUCTIONS_DIRS"), ",") {
		if dir = strings.TrimSpace(dir); dir == "" || hasFlagArg(r.inv.args, "--no-custom-instructions") {
			continue
		}
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".instructions.md") {
				if b, err := os.ReadFile(p); err == nil {
					parts = append(parts, string(b))
				}
			}
			return nil
		})
	}
	return strings.Join(parts, "\n\n")
}

func hasFlagArg(args []string, name string) bool {
	for _, a := range args {
		if a == name {
			return true
		}
	}
	return false
}

func (r *copilotRun) stamp() string { return r.inv.now().UTC().Format("2006-01-02T15:04:05.000Z") }

// event appends one event linked to the previous one.
func (r *copilotRun) event(typ string, data map[string]any) {
	id := uuid.NewString()
	var parent any
	if r.last != "" {
		parent = r.last
	}
	r.w.write(map[string]any{"type": typ, "data": data, "id": id, "timestamp": r.stamp(), "parentId": parent})
	r.last = id
}

// turn writes one user turn and returns the reply; RUN_TOOL makes one bash
// call first. The first turn of a run records the system prompt with the
// custom instructions, as Copilot does.
func (r *copilotRun) turn(prompt string) string {
	r.event("user.message", map[string]any{"content": prompt,
		"transformedContent": "<current_datetime>" + r.stamp() + "</current_datetime>\n\n" + prompt})
	if !r.system {
		r.event("system.message", map[string]any{"role": "system", "content": "You are the GitHub Copilot CLI (fake).\n" + r.context})
		r.system = true
	}
	output := ""
	if wantsTool(prompt) {
		call := "call_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:24]
		args := map[string]any{"command": "echo hello", "description": "Print hello"}
		r.event("assistant.turn_start", map[string]any{"turnId": "0"})
		r.event("assistant.message", map[string]any{"messageId": uuid.NewString(), "content": "",
			"toolRequests": []any{map[string]any{"toolCallId": call, "name": "bash", "arguments": args}}})
		r.event("tool.execution_start", map[string]any{"toolCallId": call, "toolName": "bash", "arguments": args})
		r.event("tool.execution_complete", map[string]any{"toolCallId": call, "success": true,
			"result": map[string]any{"content": "hello\n<shellId: 0 completed with exit code 0>"}})
		r.event("assistant.turn_end", map[string]any{"turnId": "0"})
		output = "hello"
	}
	reply := replyFor(prompt, output)
	r.event("assistant.turn_start", map[string]any{"turnId": "1"})
	r.event("session.usage_record", map[string]any{"usage": map[string]any{"model": "mock-model", "inputTokens": 100, "outputTokens": 10}})
	r.event("assistant.message", map[string]any{"messageId": uuid.NewString(), "content": reply, "toolRequests": []any{}})
	r.event("assistant.turn_end", map[string]any{"turnId": "1"})
	return reply
}
