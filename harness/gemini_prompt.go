package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Gemini's default system prompt, produced per launch shape.
//
// GEMINI_SYSTEM_MD replaces Gemini's system prompt, so the packet must come
// after Gemini's own prompt, which Gemini composes at start from the mode
// (interactive or not), the approval mode, the model, the tools, the
// working directory (git or not, the project's temp dir) and the home
// (memory file paths). The CLI writes the prompt it composed to the file
// named by GEMINI_WRITE_SYSTEM_MD before any model request, and its hidden
// --fake-responses-non-strict flag (0.61.0) answers model calls from a file
// instead of the network. So a dry start of the same executable, in the
// same directory, with the same mode, approval and model flags, under a
// scratch GEMINI_CLI_HOME, writes that prompt without a model request and
// without touching the user's store. The scratch home's path is then
// replaced by the real one, and the result is cached by launch shape in the
// data home (the first launch of a shape pays one dry start, a few
// seconds).
//
// What the scratch home cannot reproduce is left out on purpose: the
// user's skills, extensions, agents and MCP servers (starting those is a
// side effect), and their global GEMINI.md (Gemini appends memory after
// GEMINI_SYSTEM_MD itself, so the real run still gets it, once).

// geminiShape is what Gemini's default prompt depends on for one launch.
type geminiShape struct {
	Exe         string   `json:"exe"`
	ExeStamp    string   `json:"exe_stamp"` // size and mtime: a new version gets a new prompt
	Cwd         string   `json:"cwd"`
	Home        string   `json:"home"` // Gemini's home (GEMINI_CLI_HOME or HOME)
	Interactive bool     `json:"interactive"`
	Flags       []string `json:"flags"`    // model and approval flags, in order
	Settings    string   `json:"settings"` // the user settings copied into the scratch home
	UserSystem  string   `json:"-"`        // the user's own GEMINI_SYSTEM_MD
	CacheDir    string   `json:"-"`
}

// geminiShapeOf reads the shape of the launch with final args.
func geminiShapeOf(args []string, interactive bool, d Decision) geminiShape {
	getenv := d.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	s := geminiShape{Exe: d.Executable, Interactive: interactive, UserSystem: getenv(EnvGeminiSystemMD)}
	if st, err := os.Stat(d.Executable); err == nil {
		s.ExeStamp = fmt.Sprintf("%d/%d", st.Size(), st.ModTime().UnixNano())
	}
	s.Cwd, _ = os.Getwd()
	s.Home = getenv("GEMINI_CLI_HOME")
	if s.Home == "" {
		s.Home = getenv("HOME")
	}
	if s.Home == "" {
		s.Home, _ = os.UserHomeDir()
	}
	s.Flags = geminiShapeFlags(args)
	s.Settings = geminiSettingsSubset(filepath.Join(s.Home, ".gemini", "settings.json"))
	if d.RunDir != "" { // <data home>/runs/<run id>
		s.CacheDir = filepath.Join(filepath.Dir(filepath.Dir(d.RunDir)), "cache", "gemini-prompt")
	}
	return s
}

// geminiShapeFlags keeps the options that change the system prompt: the
// model and the approval mode.
func geminiShapeFlags(args []string) []string {
	var out []string
	end := optionsEnd(args)
	for i := 0; i < end; i++ {
		a := args[i]
		switch {
		case a == "-y" || a == "--yolo":
			out = append(out, a)
		case isFlag(a, "-m", "--model", "--approval-mode"):
			if strings.Contains(a, "=") {
				out = append(out, a)
			} else if v, j := flagValueAt(args, i); j > i {
				out = append(out, a, v)
				i = j
			}
		}
	}
	return out
}

// geminiSettingsSubset returns, as JSON, the parts of the user's
// settings.json that change the prompt without side effects: the model,
// the context file names, the default approval mode and the core and
// excluded tools. A missing or unreadable file reads as "{}".
func geminiSettingsSubset(path string) string {
	var user map[string]json.RawMessage
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &user) != nil {
		return "{}"
	}
	out := map[string]any{}
	if m, ok := user["model"]; ok {
		out["model"] = m
	}
	pick := func(section string, keys ...string) {
		var sec map[string]json.RawMessage
		if json.Unmarshal(user[section], &sec) != nil {
			return
		}
		kept := map[string]json.RawMessage{}
		for _, k := range keys {
			if v, ok := sec[k]; ok {
				kept[k] = v
			}
		}
		if len(kept) > 0 {
			out[section] = kept
		}
	}
	pick("context", "fileName")
	pick("general", "defaultApprovalMode")
	pick("tools", "core", "exclude")
	enc, _ := json.Marshal(out) // cannot fail: raw members are valid JSON
	return string(enc)
}

// geminiUserSystemMD returns the user's own GEMINI_SYSTEM_MD file (ok) when
// they set one: the packet then extends their prompt, as Gemini resolves
// it ("1"/"true" = .gemini/system.md in the working directory, "~" the
// home). A file that does not exist is an error: Gemini would refuse to
// start with it anyway.
func geminiUserSystemMD(s geminiShape) (string, bool, error) {
	v := strings.TrimSpace(s.UserSystem)
	switch strings.ToLower(v) {
	case "", "0", "false":
		return "", false, nil
	case "1", "true":
		v = filepath.Join(s.Cwd, ".gemini", "system.md")
	}
	if v == "~" || strings.HasPrefix(v, "~/") {
		v = filepath.Join(s.Home, v[1:])
	}
	b, err := os.ReadFile(v)
	if err != nil {
		return "", true, fmt.Errorf("your %s file could not be read (%v)", EnvGeminiSystemMD, errors.Unwrap(err))
	}
	return string(b), true, nil
}

// geminiDefaultPrompt returns the cached prompt of shape s, or makes it
// with a dry start and caches it.
func geminiDefaultPrompt(s geminiShape) (string, error) {
	if s.Exe == "" || s.CacheDir == "" {
		return "", errors.New("the Gemini CLI executable or the data home is unknown")
	}
	key, _ := json.Marshal(s)
	sum := sha256.Sum256(key)
	cached := filepath.Join(s.CacheDir, hex.EncodeToString(sum[:16])+".md")
	if b, err := os.ReadFile(cached); err == nil && len(b) > 0 {
		return string(b), nil
	}
	text, err := geminiDryStart(s)
	if err != nil {
		return "", fmt.Errorf("could not produce Gemini CLI's own system prompt to extend (%v)", err)
	}
	if err := writeFileAtomic(cached, text); err != nil {
		return "", fmt.Errorf("cache Gemini's system prompt: %w", err)
	}
	return text, nil
}

// writeFileAtomic writes text to path (0600, dirs 0700) through a rename,
// so a concurrent launcher never reads half a file.
func writeFileAtomic(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := f.WriteString(text)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}
