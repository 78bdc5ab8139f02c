package harnesstest

import (
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/google/uuid"
)

// AntigravityVersion is the agy release whose flags and store the fake
// follows (the anchor's adapter, verified on 1.1.7; agy installs only from
// antigravity.google).
const AntigravityVersion = "1.1.7"

// FakeAntigravityMain runs the fake agy on the process's argv and stdio and
// returns its exit code.
func FakeAntigravityMain() int {
	inv, err := osInvocation()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake agy:", err)
		return 1
	}
	return runAntigravity(inv)
}

func runAntigravity(inv invocation) int {
	k, err := readKnobs(inv.getenv)
	if err != nil {
		fmt.Fprintln(inv.stderr, "fake agy:", err)
		return 2
	}
	entry := logEntry{Harness: "antigravity"}
	code := agyMain(inv, k, &entry)
	if err := writeLog(inv, k, entry); err != nil {
		fmt.Fprintln(inv.stderr, "fake agy:", err)
		return 1
	}
	return finish(inv, k, code)
}

// agyArgs is the parsed command line. A value option takes the next word
// whatever it is, as agy's does.
type agyArgs struct {
	version, help, print, cont, yolo bool
	utility, prompt, conversation    string
}

var agyFakeValueOpts = map[string]bool{"-p": true, "--print": true, "--prompt": true, "-i": true,
	"--prompt-interactive": true, "--conversation": true, "--model": true, "--effort": true,
	"--mode": true, "--add-dir": true, "--output-format": true, "--input-format": true,
	"--print-timeout": true, "--gemini_dir": true}

func parseAgyArgs(args []string) (agyArgs, error) {
	var a agyArgs
	for i := 0; i < len(args); i++ {
		name, value, inline := strings.Cut(args[i], "=")
		if agyFakeValueOpts[name] && !inline && i+1 < len(args) {
			i++
			value = args[i]
		}
		switch name {
		case "-v", "--version":
			a.version = true
		case "-h", "--help":
			a.help = true
		case "-c", "--continue":
			a.cont = true
		case "--dangerously-skip-permissions":
			a.yolo = true
		case "-p", "--print", "--prompt":
			a.print, a.prompt = true, value
		case "-i", "--prompt-interactive":
			a.prompt = value
		case "--conversation":
			a.conversation = value
		default:
			switch {
			case agyFakeValueOpts[name]:
			case strings.HasPrefix(name, "-"):
				return a, fmt.Errorf("unknown flag: %s", args[i])
			case a.utility == "" && agyFakeUtility(name):
				a.utility = name
				return a, nil
			default:
				return a, fmt.Errorf("unexpected argument %q (use -p <prompt>)", args[i])
			}
		}
	}
	return a, nil
}

func agyFakeUtility(w string) bool {
	switch w {
	case "agent", "agents", "changelog", "help", "install", "models", "plugin", "plugins", "update":
		return true
	}
	return false
}

func agyMain(inv invocation, k knobs, entry *logEntry) int {
	a, err := parseAgyArgs(inv.args)
	switch {
	case err != nil:
		fmt.Fprintln(inv.stderr, "Error:", err)
		return 1
	case a.version:
		fmt.Fprintln(inv.stdout, "agy "+AntigravityVersion)
		return 0
	case a.help || a.utility != "":
		fmt.Fprintln(inv.stdout, "agy: nothing to do in the fake")
		return 0
	}
	id, err := agyRun(inv, k, a)
	entry.SessionID = id
	if err != nil {
		fmt.Fprintln(inv.stderr, "Error:", err)
		return 1
	}
	return 0
}

// agyStore is ~/.gemini/antigravity-cli.
func agyStore(inv invocation) string {
	return filepath.Join(inv.getenv("HOME"), ".gemini", "antigravity-cli")
}

// agyRun selects the conversation (--conversation must exist; -c takes the
// newest of the cwd, or starts one) and runs the turns.
func agyRun(inv invocation, k knobs, a agyArgs) (string, error) {
	if !a.print && !inv.stdinTTY {
		return "", errors.New("agy needs a terminal; use -p <prompt>")
	}
	if a.print && a.prompt == "" {
		b, _ := io.ReadAll(inv.stdin)
		a.prompt = strings.TrimSpace(string(b))
	}
	if a.print && a.prompt == "" {
		return "", errors.New("-p needs a prompt")
	}
	root := agyStore(inv)
	id := a.conversation
	switch {
	case id != "":
		if fi, err := os.Stat(agyDBPath(root, id)); err != nil || !fi.Mode().IsRegular() {
			return "", fmt.Errorf("conversation %s not found", id)
		}
	case a.cont:
		id = newestAgyConversation(root, inv.cwd)
	}
	opening := id == ""
	if opening {
		id = uuid.NewString()
		if err := agyCreate(inv, root, id); err != nil {
			return "", err
		}
	}
	h, err := openJSONL(filepath.Join(root, "history.jsonl"), inv, k)
	if err != nil {
		return id, err
	}
	turn := func(p string) (string, error) {
		// The opening prompt is logged before the conversation has an id.
		rec := map[string]any{"display": p, "timestamp": inv.now().UnixMilli(), "workspace": inv.cwd}
		if !opening {
			rec["conversationId"] = id
		}
		opening = false
		h.write(rec)
		out := toolOutputFor(p)
		return replyFor(p, out), agySteps(root, id, p, out)
	}
	if a.print {
		reply, err := turn(a.prompt)
		fmt.Fprintln(inv.stdout, reply)
		if err != nil {
			h.close()
			return id, err
		}
	} else if err := promptLoop(inv, []string{"/quit", "/exit"}, func(p string) (string, error) {
		r, err := turn(p)
		if err == nil {
			err = h.err
		}
		return r, err
	}); err != nil {
		h.close()
		return id, err
	}
	return id, h.close()
}

func agyDBPath(root, id string) string { return filepath.Join(root, "conversations", id+".db") }

// agyOpen opens a conversation database read-write in WAL mode.
func agyOpen(path string) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(5000)")
	return sql.Open("sqlite", "file:"+path+"?"+q.Encode())
}

// agyCreate writes a new conversation database: the trajectory metadata
// the reader decodes (row 'main': field 1 → field 1 the workspace URI,
// field 2 the creation Timestamp) and the steps table, whose payloads are
// opaque to every reader.
func agyCreate(inv invocation, root, id string) error {
	if err := os.MkdirAll(filepath.Join(root, "conversations"), 0o700); err != nil {
		return fmt.Errorf("create conversations dir: %w", err)
	}
	db, err := agyOpen(agyDBPath(root, id))
	if err != nil {
		return err
	}
	defer db.Close()
	now := inv.now()
	ws := protoBytes(1, []byte((&url.URL{Scheme: "file", Path: filepath.ToSlash(inv.cwd)}).String()))
	created := append(protoUint(1, uint64(now.Unix())), protoUint(2, uint64(now.Nanosecond()))...)
	meta := append(protoBytes(1, ws), protoBytes(2, created)...)
	for _, stmt := range []string{
		`CREATE TABLE trajectory_metadata_blob (id TEXT PRIMARY KEY, data BLOB)`,
		`CREATE TABLE steps (idx INTEGER PRIMARY KEY, step_type INTEGER, status INTEGER, step_payload BLOB)`,
	} {
		if _, err := db.Exec(stmt); err != nil {
			return fmt.Errorf("create conversation: %w", err)
		}
	}
	if _, err := db.Exec(`INSERT INTO trajectory_metadata_blob VALUES ('main', ?)`, meta); err != nil {
		return fmt.Errorf("create conversation: %w", err)
	}
	return nil
}

// agySteps appends one turn's steps: the prompt (type 14), a tool step when
// the prompt asks for one, and the reply (type 15).
func agySteps(root, id, prompt, toolOutput string) error {
	db, err := agyOpen(agyDBPath(root, id))
	if err != nil {
		return err
	}
	defer db.Close()
	steps := []struct {
		typ  int
		text string
	}{{14, prompt}}
	if toolOutput != "" {
		steps = append(steps, struct {
			typ  int
			text string
		}{21, toolOutput})
	}
	steps = append(steps, struct {
		typ  int
		text string
	}{15, replyFor(prompt, toolOutput)})
	for _, s := range steps {
		if _, err := db.Exec(`INSERT INTO steps (step_type, status, step_payload) VALUES (?, 3, ?)`,
			s.typ, protoBytes(1, []byte(s.text))); err != nil {
			return fmt.Errorf("write step: %w", err)
		}
	}
	return nil
}

// newestAgyConversation is the newest conversation of cwd ("" if none).
func newestAgyConversation(root, cwd string) string {
	m, _ := filepath.Glob(filepath.Join(root, "conversations", "*.db"))
	sort.Slice(m, func(i, j int) bool {
		fi, _ := os.Stat(m[i])
		fj, _ := os.Stat(m[j])
		return fi != nil && fj != nil && fi.ModTime().After(fj.ModTime())
	})
	want := (&url.URL{Scheme: "file", Path: filepath.ToSlash(cwd)}).String()
	for _, p := range m {
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), want) {
			return strings.TrimSuffix(filepath.Base(p), ".db")
		}
	}
	return ""
}

// protoBytes and protoUint encode one protobuf field.
func protoBytes(field uint64, b []byte) []byte {
	return append(protoVarint(nil, field<<3|2, uint64(len(b))), b...)
}

func protoUint(field, v uint64) []byte { return protoVarint(nil, field<<3, v) }

func protoVarint(out []byte, vs ...uint64) []byte {
	for _, v := range vs {
		for v >= 0x80 {
			out = append(out, byte(v)|0x80)
			v >>= 7
		}
		out = append(out, byte(v))
	}
	return out
}

// antigravityFake is the fakes-list entry; the CLI is agy on PATH.
var antigravityFake = Fake{Harness: "antigravity", Executable: "agy", Main: FakeAntigravityMain, Print: "-p", run: runAntigravity,
	Vars: map[string]string{
		"YOLO": "--dangerously-skip-permissions", "SELECT": "--continue", "DELIVERY": "none",
		"VERSION_OUT": "agy " + AntigravityVersion, "UTIL": "models", "UTIL_ARG": "list",
		"STORE": ".gemini/antigravity-cli/conversations", "TRANSCRIPTS": ".gemini/antigravity-cli/history.jsonl",
		"FRESH_RE":       `"argv":\["-p","[^"]*"\]`,
		"RESUME_RE":      `"argv":\["-p","[^"]*","--conversation","` + uuidRE + `"\]`,
		"BARE_RESUME_RE": `"argv":\["--conversation","` + uuidRE + `"\]`,
	}}
