package harnesstest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/google/uuid"
)

// kimiRun is one run of the fake Kimi Code: one session directory
// <KIMI_CODE_HOME or ~/.kimi-code>/sessions/wd_<slug>_<hash>/session_<uuid>/
// with state.json and agents/main/wire.jsonl, like 2.1.0.
type kimiRun struct {
	inv     invocation
	k       knobs
	a       kimiArgs
	home    string
	id      string
	w       *jsonlWriter
	context string
}

func (r *kimiRun) sessions() string { return filepath.Join(r.home, "sessions") }

var kimiSlugRE = regexp.MustCompile(`[^a-z0-9._-]+`)

// kimiBucket is Kimi's workspace bucket name for a cwd.
func kimiBucket(cwd string) string {
	slug := kimiSlugRE.ReplaceAllString(strings.ToLower(filepath.Base(cwd)), "-")
	if len(slug) > 40 {
		slug = slug[:40]
	}
	sum := sha256.Sum256([]byte(strings.TrimRight(cwd, "/")))
	return "wd_" + slug + "_" + hex.EncodeToString(sum[:])[:12]
}

func (r *kimiRun) run() error {
	r.home = r.inv.getenv("KIMI_CODE_HOME")
	if r.home == "" {
		r.home = filepath.Join(r.inv.getenv("HOME"), ".kimi-code")
	}
	if !r.a.hasPrompt && !r.inv.stdinTTY {
		return kimiExit{1, "error: the interactive UI needs a terminal; use -p for prompt mode"}
	}
	if err := r.openSession(); err != nil {
		return err
	}
	defer r.w.close()
	if r.a.hasPrompt {
		fmt.Fprintln(r.inv.stderr, "kimi version "+KimiVersion)
		fmt.Fprintln(r.inv.stdout, "• "+r.turn(r.a.prompt))
		fmt.Fprintf(r.inv.stderr, "To resume this session: kimi -r %s\n", r.id)
		return r.w.close()
	}
	err := promptLoop(r.inv, []string{"/exit", "/quit"}, func(p string) (string, error) { return r.turn(p), r.w.err })
	if err != nil {
		return err
	}
	fmt.Fprintf(r.inv.stdout, "Bye!\nTo resume this session: kimi -r %s\n", r.id)
	return r.w.close()
}

// openSession picks the session like Kimi: -S <id> (must exist and belong
// to this cwd), bare -S (the picker: the newest here), -c (the newest
// here, else a new one), else a new one.
func (r *kimiRun) openSession() error {
	switch {
	case r.a.hasSession && r.a.session != "":
		dir := r.find(r.a.session)
		if dir == "" {
			return kimiExit{1, fmt.Sprintf("error: failed to run prompt: Session %q not found.", r.a.session)}
		}
		if cwd := kimiStateCwd(dir); cwd != r.inv.cwd {
			return kimiExit{1, fmt.Sprintf("error: session %s was created under a different directory (%s)", r.a.session, cwd)}
		}
		return r.open(dir)
	case r.a.hasSession || r.a.cont:
		if dirs := r.here(); len(dirs) > 0 {
			return r.open(dirs[0])
		}
	}
	return r.create("session_" + uuid.NewString())
}

func kimiWireOf(dir string) string { return filepath.Join(dir, "agents", "main", "wire.jsonl") }

// find returns the directory of session id in any bucket.
func (r *kimiRun) find(id string) string {
	matches, _ := filepath.Glob(filepath.Join(r.sessions(), "*", id))
	for _, m := range matches {
		if _, err := os.Stat(kimiWireOf(m)); err == nil {
			return m
		}
	}
	return ""
}

// here lists this cwd's session directories, newest first.
func (r *kimiRun) here() []string {
	matches, _ := filepath.Glob(filepath.Join(r.sessions(), kimiBucket(r.inv.cwd), "session_*"))
	var out []string
	for _, m := range matches {
		if kimiStateCwd(m) == r.inv.cwd {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return modTime(kimiWireOf(out[i])) > modTime(kimiWireOf(out[j])) })
	return out
}

func kimiStateCwd(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if err != nil {
		return ""
	}
	var st struct{ Cwd string }
	_ = json.Unmarshal(data, &st)
	return st.Cwd
}

func (r *kimiRun) create(id string) error {
	dir := filepath.Join(r.sessions(), kimiBucket(r.inv.cwd), id)
	if err := os.MkdirAll(filepath.Join(dir, "agents", "main"), 0o700); err != nil {
		return fmt.Errorf("create session dir: %w", err)
	}
	now := r.inv.now().UnixMilli()
	state, _ := json.Marshal(map[string]any{"id": id, "version": 2, "cwd": r.inv.cwd, "archived": false,
		"createdAt": now, "updatedAt": now, "isCustomTitle": false})
	if err := os.WriteFile(filepath.Join(dir, "state.json"), state, 0o600); err != nil {
		return fmt.Errorf("write state.json: %w", err)
	}
	index, _ := json.Marshal(map[string]any{"sessionId": id, "sessionDir": dir, "workDir": r.inv.cwd})
	if f, err := os.OpenFile(filepath.Join(r.home, "session_index.jsonl"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err == nil {
		f.Write(append(index, '\n'))
		f.Close()
	}
	w, err := openJSONL(kimiWireOf(dir), r.inv, r.k)
	if err != nil {
		return err
	}
	r.w, r.id = w, id
	prompt := "You are Kimi Code (fake)."
	if r.a.agentFile != "" {
		body, err := kimiAgentBody(r.a.agentFile)
		if err != nil {
			return err
		}
		r.context = strings.TrimSpace(strings.ReplaceAll(body, "${base_prompt}", ""))
		prompt = strings.ReplaceAll(body, "${base_prompt}", prompt)
	}
	r.record("metadata", map[string]any{"protocol_version": "1.5", "created_at": now})
	r.record("profile.bind", map[string]any{"agentId": "main", "modelAlias": "mock", "systemPrompt": prompt})
	return nil
}

// kimiAgentBody is an agent file's text after its front matter.
func kimiAgentBody(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", kimiExit{1, fmt.Sprintf("error: cannot read agent file %s", path)}
	}
	s := string(data)
	if rest, ok := strings.CutPrefix(s, "---\n"); ok {
		if _, body, ok := strings.Cut(rest, "\n---\n"); ok {
			return body, nil
		}
	}
	return s, nil
}

func (r *kimiRun) open(dir string) error {
	w, err := openJSONL(kimiWireOf(dir), r.inv, r.k)
	if err != nil {
		return err
	}
	r.w, r.id = w, filepath.Base(dir)
	return nil
}

// record appends one wire record with its time in Unix milliseconds.
func (r *kimiRun) record(typ string, fields map[string]any) {
	rec := map[string]any{"type": typ, "time": r.inv.now().UnixMilli()}
	for k, v := range fields {
		rec[k] = v
	}
	r.w.write(rec)
}

func (r *kimiRun) appended(msg, meta map[string]any) {
	r.record("agent.message.appended", map[string]any{"message": map[string]any{"message": msg, "meta": meta}, "kind": "event"})
}

func kimiText(s string) []any { return []any{map[string]any{"type": "text", "text": s}} }

// turn writes one user turn and returns the reply; RUN_TOOL makes one Bash
// call first.
func (r *kimiRun) turn(prompt string) string {
	r.record("turn.prompt", map[string]any{"agentId": "main", "input": kimiText(prompt), "origin": map[string]any{"kind": "user"}})
	r.record("context.append_message", map[string]any{"agentId": "main", "message": map[string]any{"role": "user",
		"content": kimiText(prompt), "origin": map[string]any{"kind": "user"}}})
	r.appended(map[string]any{"role": "user", "content": kimiText(prompt)}, map[string]any{"source": "input", "origin": map[string]any{"kind": "user"}})
	r.record("context.append_message", map[string]any{"agentId": "main", "message": map[string]any{"role": "user",
		"content": kimiText("<system-reminder>\nAuto permission mode is active.\n</system-reminder>"), "origin": map[string]any{"kind": "injection"}}})
	output := ""
	if wantsTool(prompt) {
		call := "call_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:24]
		r.appended(map[string]any{"role": "assistant", "content": []any{}, "toolCalls": []any{map[string]any{"type": "function",
			"id": call, "name": "Bash", "arguments": `{"command":"echo hello","description":"Print hello"}`}}}, map[string]any{"source": "llm"})
		r.appended(map[string]any{"role": "tool", "content": kimiText("hello\n"), "toolCallId": call}, map[string]any{"source": "tool"})
		output = "hello"
	}
	reply := replyFor(prompt, output)
	r.appended(map[string]any{"role": "assistant", "content": kimiText(reply), "toolCalls": []any{}}, map[string]any{"source": "llm"})
	r.record("usage.record", map[string]any{"usage": map[string]any{"inputOther": 100, "output": 10}})
	r.record("turn.ended", map[string]any{"reason": "completed"})
	return reply
}
