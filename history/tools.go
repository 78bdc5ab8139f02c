package history

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// toolUse is what one tool call did, as far as its arguments say.
type toolUse struct {
	read, edited, written []string
	command               string
}

// parseToolCall reads a tool_call event's content, "<tool>: <arguments>"
// (docs/transcripts.md), for the tools of Claude Code and Codex that touch
// files or run commands. Unknown tools yield nothing.
func parseToolCall(content string) toolUse {
	name, args, _ := strings.Cut(content, ": ")
	var m map[string]any
	_ = json.Unmarshal([]byte(args), &m) // raw (non-JSON) input stays nil
	var u toolUse
	switch name {
	case "Read":
		u.read = strs(m["file_path"])
	case "Edit", "MultiEdit":
		u.edited = strs(m["file_path"])
	case "NotebookEdit":
		u.edited = strs(m["notebook_path"])
	case "Write":
		u.written = strs(m["file_path"])
	case "Bash":
		u.command = str(m["command"])
	case "exec_command":
		u.command = shellLine(m["cmd"])
	case "shell", "local_shell", "shell_command":
		u.command = shellLine(m["command"])
	case "apply_patch":
		input := args
		if s := str(m["input"]); s != "" {
			input = s
		}
		u.edited, u.written = patchFiles(input)
	}
	return u
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func strs(v any) []string {
	if s := str(v); s != "" {
		return []string{s}
	}
	return nil
}

// shellLine renders a command given as a string or an argv; the common
// ["bash", "-lc", script] shows as the script.
func shellLine(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		var argv []string
		for _, a := range t {
			argv = append(argv, str(a))
		}
		if len(argv) == 3 && (argv[1] == "-lc" || argv[1] == "-c") {
			return argv[2]
		}
		return strings.Join(argv, " ")
	}
	return ""
}

// patchFiles lists the files of a Codex apply_patch envelope.
func patchFiles(patch string) (edited, written []string) {
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimSpace(line)
		if p, ok := strings.CutPrefix(line, "*** Add File: "); ok {
			written = append(written, p)
		} else if p, ok := strings.CutPrefix(line, "*** Update File: "); ok {
			edited = append(edited, p)
		} else if p, ok := strings.CutPrefix(line, "*** Delete File: "); ok {
			edited = append(edited, p)
		}
	}
	return edited, written
}

// relPath shows p relative to the checkout when it lies inside it.
func relPath(root, p string) string {
	if root == "" || !filepath.IsAbs(p) {
		return p
	}
	if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return p
}
