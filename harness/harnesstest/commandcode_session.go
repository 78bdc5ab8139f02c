package harnesstest

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/google/uuid"
)

// ccRun is one run of the fake Command Code: one tree JSONL file
// ~/.commandcode/projects/<slug>/<uuid>.jsonl, like 1.64.0.
type ccRun struct {
	inv     invocation
	k       knobs
	a       ccArgs
	root    string
	id      string
	w       *jsonlWriter
	last    string
	context string
}

// ccSlug is @sindresorhus/slugify for plain lower-case ASCII paths.
func ccSlug(p string) string {
	f := strings.FieldsFunc(strings.ToLower(p), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
	return strings.Join(f, "-")
}

func (r *ccRun) run() error {
	r.root = filepath.Join(r.inv.getenv("HOME"), ".commandcode", "projects")
	if !r.a.print && !r.inv.stdinTTY {
		return ccExit{1, "Error: interactive mode needs a terminal; use -p"}
	}
	ctx, err := r.modPrompts()
	if err != nil {
		return err
	}
	if err := r.openSession(); err != nil {
		return err
	}
	defer r.w.close()
	r.context = ctx
	if r.a.print {
		prompt := strings.TrimSpace(strings.Join(append([]string{r.a.prompt}, r.a.messages...), " "))
		if prompt == "" {
			return ccExit{1, "Error: no prompt given for --print"}
		}
		fmt.Fprintln(r.inv.stdout, r.turn(prompt))
		return r.w.close()
	}
	if len(r.a.messages) > 0 {
		fmt.Fprintln(r.inv.stdout, r.turn(strings.Join(r.a.messages, " ")))
	}
	if err := promptLoop(r.inv, []string{"/exit", "/quit"}, func(p string) (string, error) { return r.turn(p), r.w.err }); err != nil {
		return err
	}
	fmt.Fprintf(r.inv.stdout, "Resume this session with:\ncmd --resume %s\n", r.id)
	return r.w.close()
}

// openSession: --session <id|prefix|path>, -r <id|prefix> (bare: the
// newest here, as the picker offers first; bare is refused in print
// mode), -c (the newest here), else a new session.
func (r *ccRun) openSession() error {
	switch {
	case r.a.session != "":
		if p := r.match(r.a.session); p != "" {
			return r.open(p)
		}
		return ccExit{1, fmt.Sprintf("Error: --session %q is neither an existing .jsonl transcript nor a known session-id prefix.", r.a.session)}
	case r.a.hasResume && r.a.resume == "" && r.a.print:
		return ccExit{1, "Error: --resume requires a session id in print mode"}
	case r.a.hasResume && r.a.resume != "":
		if p := r.match(r.a.resume); p != "" {
			return r.open(p)
		}
		return ccExit{1, fmt.Sprintf("Error: no session matches %q", r.a.resume)}
	case r.a.hasResume || r.a.cont:
		if files := r.here(); len(files) > 0 {
			return r.open(files[0])
		}
	}
	return r.create(uuid.NewString())
}

// match resolves a transcript path, a session id or an id prefix.
func (r *ccRun) match(v string) string {
	if strings.HasSuffix(v, ".jsonl") {
		if _, err := os.Stat(v); err == nil {
			return v
		}
		return ""
	}
	files, _ := filepath.Glob(filepath.Join(r.root, "*", v+"*.jsonl"))
	for _, f := range files {
		if !strings.HasSuffix(f, ".checkpoints.jsonl") {
			return f
		}
	}
	return ""
}

func (r *ccRun) here() []string {
	files, _ := filepath.Glob(filepath.Join(r.root, ccSlug(r.inv.cwd), "*.jsonl"))
	var out []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".checkpoints.jsonl") {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return modTime(out[i]) > modTime(out[j]) })
	return out
}

func (r *ccRun) stamp() string { return r.inv.now().UTC().Format("2006-01-02T15:04:05.000Z") }

func (r *ccRun) create(id string) error {
	dir := filepath.Join(r.root, ccSlug(r.inv.cwd))
	w, err := openJSONL(filepath.Join(dir, id+".jsonl"), r.inv, r.k)
	if err != nil {
		return err
	}
	if r.a.print {
		_ = os.WriteFile(filepath.Join(dir, id+".meta.json"), []byte(`{"entrypoint":"print"}`), 0o600)
	}
	r.w, r.id = w, id
	r.w.write(map[string]any{"type": "session", "version": 3, "id": id, "timestamp": r.stamp(), "cwd": r.inv.cwd})
	return nil
}

func (r *ccRun) open(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open session: %w", err)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		var rec struct{ Type, ID string }
		if json.Unmarshal(sc.Bytes(), &rec) == nil {
			if rec.Type == "session" {
				r.id = rec.ID
			} else if rec.ID != "" {
				r.last = rec.ID
			}
		}
	}
	f.Close()
	w, err := openJSONL(path, r.inv, r.k)
	r.w = w
	return err
}

// message appends one message entry linked to the leaf.
func (r *ccRun) message(role, source string, content []any) {
	b := uuid.New()
	id := hex.EncodeToString(b[:4])
	var parent any
	if r.last != "" {
		parent = r.last
	}
	r.w.write(map[string]any{"type": "message", "id": id, "parentId": parent, "timestamp": r.stamp(),
		"message": map[string]any{"role": role, "content": content, "meta": map[string]any{"source": source, "createdAt": r.inv.now().UnixMilli()}}})
	r.last = id
}

// turn writes one user turn and returns the reply; RUN_TOOL makes one
// shell_command call first (refused without --yolo, as in print mode).
func (r *ccRun) turn(prompt string) string {
	r.message("user", "user", []any{map[string]any{"type": "text", "text": prompt}})
	output := ""
	if wantsTool(prompt) {
		call := "call_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:24]
		r.message("assistant", "model", []any{map[string]any{"type": "tool_use", "id": call, "name": "shell_command",
			"input": map[string]any{"command": "echo hello", "description": "Print hello"}}})
		output = "hello\n"
		if !r.a.yolo {
			output = `Error: Tool "shell_command" requires permissions. Use --yolo to allow.`
		}
		r.message("user", "tool", []any{map[string]any{"type": "tool_result", "tool_use_id": call,
			"content": []any{map[string]any{"type": "text", "text": output}}}})
		output = strings.TrimSpace(output)
	}
	reply := replyFor(prompt, output)
	r.message("assistant", "model", []any{map[string]any{"type": "text", "text": reply}})
	return reply
}
