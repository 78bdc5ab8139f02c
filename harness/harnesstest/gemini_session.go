package harnesstest

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// geminiRun is one session of the fake Gemini CLI, stored like 0.61.0:
// <home>/.gemini/tmp/<slug>/chats/session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl,
// the slug mapped in <home>/.gemini/projects.json and .project_root.
type geminiRun struct {
	inv     invocation
	k       knobs
	a       geminiArgs
	root    string // <home>/.gemini
	chats   string
	id      string
	w       *jsonlWriter
	history []map[string]any // message records, for the resume snapshot
	context string
}

func (r *geminiRun) run() error {
	home := r.inv.getenv("GEMINI_CLI_HOME")
	if home == "" {
		home = r.inv.getenv("HOME")
	}
	r.root = filepath.Join(home, ".gemini")
	interactive := r.a.hasInteractive || (r.inv.stdinTTY && !r.a.hasPrompt)
	prompt := r.a.prompt
	if !interactive {
		if in := stdinPrompt(r.inv); in != "" {
			prompt = strings.TrimSpace(in + "\n\n" + prompt)
		}
		if prompt == "" {
			prompt = strings.Join(r.a.query, " ")
		}
		if prompt == "" {
			return geminiExit{1, "No input provided via stdin. Input can be provided by piping data into gemini or using the --prompt option."}
		}
	}
	if err := r.systemPrompt(home, interactive); err != nil {
		return err
	}
	if err := r.project(); err != nil {
		return err
	}
	if err := r.openSession(); err != nil {
		return err
	}
	defer r.w.close()
	if !interactive {
		fmt.Fprintln(r.inv.stdout, r.turn(prompt))
		return r.w.close()
	}
	if first := strings.TrimSpace(r.a.promptInteractive + " " + strings.Join(r.a.query, " ")); first != "" {
		fmt.Fprintln(r.inv.stdout, r.turn(first))
	}
	if err := promptLoop(r.inv, []string{"/quit", "/exit"}, func(p string) (string, error) { return r.turn(p), r.w.err }); err != nil {
		return err
	}
	fmt.Fprintf(r.inv.stdout, "To resume this session: gemini --resume %s\n", r.id)
	return r.w.close()
}

// geminiDefaultPrompt is the fake's own system prompt; like the real one it
// depends on the mode and names files under the home.
func geminiDefaultPrompt(home string, interactive bool, mode string) string {
	kind := "autonomous"
	if interactive {
		kind = "interactive"
	}
	return fmt.Sprintf("You are Gemini CLI (fake), an %s CLI agent in **%s** mode.\nGlobal memory: %s\n",
		kind, mode, filepath.Join(home, ".gemini", "GEMINI.md"))
}

// systemPrompt resolves GEMINI_SYSTEM_MD like the CLI (a missing file is
// fatal) and writes the prompt to GEMINI_WRITE_SYSTEM_MD. The logged
// context is what follows the fake's default prompt in the custom file;
// a custom file that does not start with it is logged whole, behind a
// marker, so a lost default prompt shows in the scenarios.
func (r *geminiRun) systemPrompt(home string, interactive bool) error {
	mode := "Default"
	if r.a.yolo || r.a.approval == "yolo" {
		mode = "YOLO"
	}
	base := geminiDefaultPrompt(home, interactive, mode)
	prompt := base
	if path := r.inv.getenv("GEMINI_SYSTEM_MD"); path != "" && path != "0" && path != "false" {
		data, err := os.ReadFile(path)
		if err != nil {
			return geminiExit{1, fmt.Sprintf("Error: missing system prompt file '%s'", path)}
		}
		prompt = string(data)
		rest, ok := strings.CutPrefix(prompt, strings.TrimRight(base, "\n"))
		if !ok {
			rest = "[default system prompt missing] " + prompt
		}
		r.context = strings.TrimLeft(rest, "\n")
	}
	if out := r.inv.getenv("GEMINI_WRITE_SYSTEM_MD"); out != "" {
		if err := os.WriteFile(out, []byte(prompt), 0o600); err != nil {
			return fmt.Errorf("write system prompt: %w", err)
		}
	}
	return nil
}

// project finds or assigns the slug of the working directory.
func (r *geminiRun) project() error {
	reg := struct {
		Projects map[string]string `json:"projects"`
	}{Projects: map[string]string{}}
	regPath := filepath.Join(r.root, "projects.json")
	if data, err := os.ReadFile(regPath); err == nil {
		_ = json.Unmarshal(data, &reg)
	}
	slug, ok := reg.Projects[r.inv.cwd]
	if !ok {
		slug = geminiSlug(reg.Projects, filepath.Base(r.inv.cwd))
		reg.Projects[r.inv.cwd] = slug
		data, _ := json.MarshalIndent(reg, "", "  ")
		if err := os.MkdirAll(r.root, 0o700); err != nil {
			return fmt.Errorf("create gemini dir: %w", err)
		}
		if err := os.WriteFile(regPath, data, 0o600); err != nil {
			return fmt.Errorf("write projects.json: %w", err)
		}
	}
	dir := filepath.Join(r.root, "tmp", slug)
	r.chats = filepath.Join(dir, "chats")
	for _, d := range []string{dir, filepath.Join(r.root, "history", slug)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("create project dir: %w", err)
		}
		if err := os.WriteFile(filepath.Join(d, ".project_root"), []byte(r.inv.cwd), 0o600); err != nil {
			return fmt.Errorf("write .project_root: %w", err)
		}
	}
	return nil
}

// geminiSlug is the lower-cased, slugified base name, with -1, -2 ... on
// collisions.
func geminiSlug(taken map[string]string, base string) string {
	s := strings.Trim(strings.Map(func(c rune) rune {
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			return c
		}
		return '-'
	}, strings.ToLower(base)), "-")
	if s == "" {
		s = "project"
	}
	used := map[string]bool{}
	for _, v := range taken {
		used[v] = true
	}
	for n, cand := 0, s; ; n, cand = n+1, s+"-"+strconv.Itoa(n+1) {
		if !used[cand] {
			return cand
		}
	}
}

// openSession picks the chat file: --resume (an id, "latest"/bare or a
// 1-based index by start time), --session-id (new; an existing id is
// fatal), else a new session.
func (r *geminiRun) openSession() error {
	switch {
	case r.a.hasResume:
		return r.resume()
	case r.a.sessionID != "":
		if r.find(r.a.sessionID) != "" {
			return geminiExit{geminiFatalInput, fmt.Sprintf("Error starting session: Session ID %q already exists. Use --resume to resume it, or provide a different ID.", r.a.sessionID)}
		}
		return r.create(r.a.sessionID)
	}
	return r.create(uuid.NewString())
}

func (r *geminiRun) resume() error {
	v := r.a.resume
	files := r.sessions()
	var path string
	switch n, err := strconv.Atoi(v); {
	case v == "" || v == "latest":
		if len(files) == 0 {
			fmt.Fprintln(r.inv.stderr, "No previous sessions found for this project.")
			return r.create(uuid.NewString())
		}
		path = files[len(files)-1]
	case err == nil && n >= 1 && n <= len(files):
		path = files[n-1]
	default:
		path = r.find(v)
	}
	if path == "" {
		return geminiExit{geminiFatalInput, fmt.Sprintf("Error resuming session: Invalid session identifier %q. Use --list-sessions to see available sessions.", v)}
	}
	return r.open(path)
}

// sessions lists this project's chat files, oldest first by start time.
func (r *geminiRun) sessions() []string {
	files, _ := filepath.Glob(filepath.Join(r.chats, "session-*.jsonl"))
	type f struct{ path, start string }
	var out []f
	for _, p := range files {
		if h := geminiHeaderOf(p); h.SessionID != "" {
			out = append(out, f{p, h.StartTime})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	paths := make([]string, len(out))
	for i, x := range out {
		paths[i] = x.path
	}
	return paths
}

// find returns this project's chat file of session id, or "".
func (r *geminiRun) find(id string) string {
	if len(id) < 8 {
		return ""
	}
	files, _ := filepath.Glob(filepath.Join(r.chats, "session-*-"+id[:8]+".jsonl"))
	for _, p := range files {
		if geminiHeaderOf(p).SessionID == id {
			return p
		}
	}
	return ""
}

type geminiHeader struct {
	SessionID   string `json:"sessionId"`
	ProjectHash string `json:"projectHash"`
	StartTime   string `json:"startTime"`
}

func geminiHeaderOf(path string) geminiHeader {
	var h geminiHeader
	f, err := os.Open(path)
	if err != nil {
		return h
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	if sc.Scan() {
		_ = json.Unmarshal(sc.Bytes(), &h)
	}
	return h
}

// GeminiProjectHash is the projectHash the CLI records: hex SHA-256 of the
// project root.
func GeminiProjectHash(root string) string {
	sum := sha256.Sum256([]byte(root))
	return hex.EncodeToString(sum[:])
}

// create starts a chat file with its header and the session context
// snapshot.
func (r *geminiRun) create(id string) error {
	name := "session-" + r.inv.now().UTC().Format("2006-01-02T15-04") + "-" + id[:min(8, len(id))] + ".jsonl"
	w, err := openJSONL(filepath.Join(r.chats, name), r.inv, r.k)
	if err != nil {
		return err
	}
	r.w, r.id = w, id
	r.header()
	r.w.write(map[string]any{"$set": map[string]any{"messages": []any{r.sessionContext()}, "lastUpdated": r.stamp()}})
	return nil
}

// open appends to an existing chat file: a second header, the session id
// and a snapshot of the history, like a resumed 0.61.0 session.
func (r *geminiRun) open(path string) error {
	r.id = geminiHeaderOf(path).SessionID
	r.history = geminiMessages(path)
	w, err := openJSONL(path, r.inv, r.k)
	if err != nil {
		return err
	}
	r.w = w
	r.header()
	r.w.write(map[string]any{"$set": map[string]any{"sessionId": r.id}})
	snap := append([]any{r.sessionContext()}, anySlice(r.history)...)
	r.w.write(map[string]any{"$set": map[string]any{"messages": snap, "lastUpdated": r.stamp()}})
	return nil
}

func anySlice(ms []map[string]any) []any {
	out := make([]any, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// geminiMessages reads the message records of a chat file (the last
// version of each id, in first-seen order).
func geminiMessages(path string) []map[string]any {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var order []string
	byID := map[string]map[string]any{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		id, _ := m["id"].(string)
		if id == "" || m["type"] == nil {
			continue
		}
		if _, seen := byID[id]; !seen {
			order = append(order, id)
		}
		byID[id] = m
	}
	out := make([]map[string]any, 0, len(order))
	for _, id := range order {
		out = append(out, byID[id])
	}
	return out
}
