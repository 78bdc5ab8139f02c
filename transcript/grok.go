package transcript

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// grokSource reads Grok Build (xAI's `grok`, 1.0.x) sessions:
// $GROK_HOME/sessions/<url-encoded cwd>/<id>/ (GROK_HOME defaults to
// ~/.grok), one directory per session holding chat_history.jsonl (the
// messages sent to the model, one ConversationItem per line), summary.json
// and updates.jsonl (xai-org/grok-build: xai-grok-config/src/paths.rs,
// xai-grok-sampling-types/src/conversation.rs, user guide 17-sessions.md).
// A session's file is its chat_history.jsonl. A cwd whose encoded name is
// over 255 bytes gets a slug-hash folder with a .cwd file naming it.
//
// Another CLI also installs as `grok` (superagent-ai/grok-cli) and keeps a
// SQLite ~/.grok/grok.db; this source never reads it (see the planner).
type grokSource struct{ fileStore }

const (
	grokHomeEnv   = "GROK_HOME"
	grokChatFile  = "chat_history.jsonl"
	grokMaxDirLen = 255
)

// GrokSource returns the Grok Build store reader.
func GrokSource() Source { return grokSource{} }

func (grokSource) Harness() string { return "grok" }

func (grokSource) StoreEnv() []string { return []string{grokHomeEnv} }

// StoreRoot is the sessions directory.
func (grokSource) StoreRoot(env Env) string {
	if v := env.lookup(grokHomeEnv); v != "" {
		return filepath.Join(v, "sessions")
	}
	return filepath.Join(env.Home, ".grok", "sessions")
}

// grokDirs returns the folders that may hold checkout's sessions: the
// encoded name, or for a long cwd every slug-hash folder whose .cwd names
// it.
func (g grokSource) grokDirs(env Env, canon string) []string {
	root := g.StoreRoot(env)
	enc := GrokCwdDir(canon)
	if len(enc) <= grokMaxDirLen {
		return []string{filepath.Join(root, enc)}
	}
	return grokLongDirs(root, canon)
}

// grokLongDirs finds the slug-hash folders whose .cwd file names canon.
func grokLongDirs(root, canon string) []string {
	ents, _ := os.ReadDir(root)
	var out []string
	for i, e := range ents {
		if i >= maxFindEntries {
			break
		}
		dir := filepath.Join(root, e.Name())
		if b, err := os.ReadFile(filepath.Join(dir, ".cwd")); err == nil && sameDir(strings.TrimSpace(string(b)), canon) {
			out = append(out, dir)
		}
	}
	return out
}

// GrokCwdDir is Grok's folder name for a cwd whose encoding fits in 255
// bytes: the cwd URL-encoded as Rust's urlencoding crate does (every byte
// but A-Z a-z 0-9 - . _ ~ as %XX, upper-case hex).
func GrokCwdDir(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// WatchRoots is the checkout's session folder (and the sessions dir, for
// a long cwd whose folder does not exist yet).
func (g grokSource) WatchRoots(env Env, checkout string) []string {
	canon, ok := canonical(checkout)
	if !ok {
		return []string{g.StoreRoot(env)}
	}
	if dirs := g.grokDirs(env, canon); len(dirs) > 0 {
		return dirs
	}
	return []string{g.StoreRoot(env)}
}

func (g grokSource) List(env Env, checkout string, limit int) ([]Session, error) {
	ss, err := g.sessions(env, checkout, time.Time{})
	return limitSessions(ss, limit), err
}

func (g grokSource) CreatedSince(env Env, checkout string, since time.Time) ([]Session, error) {
	return g.sessions(env, checkout, since.Add(-createdSlack))
}

// sessions lists the session folders of the checkout's folders that hold a
// chat history modified at or after since, newest first.
func (g grokSource) sessions(env Env, checkout string, since time.Time) ([]Session, error) {
	canon, ok := canonical(checkout)
	if !ok {
		return nil, nil // fail closed
	}
	dirs := g.grokDirs(env, canon)
	if abs, err := filepath.Abs(checkout); err == nil && abs != canon {
		// Grok encodes the cwd it was started in; a symlinked spelling
		// has its own folder, whose sessions still belong here.
		dirs = append(dirs, g.grokDirs(env, abs)...)
	}
	var out []Session
	for _, dir := range dirs {
		ents, err := os.ReadDir(dir)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return nil, fmt.Errorf("list grok sessions: %w", err)
		}
		for i, e := range ents {
			if i >= maxScanFiles {
				break
			}
			if !e.IsDir() || !validID(e.Name()) {
				continue
			}
			s, ok := statSession(Session{Harness: "grok", ID: e.Name(), Cwd: canon,
				Path: filepath.Join(dir, e.Name(), grokChatFile)})
			if ok && !s.ModTime.Before(since) {
				out = append(out, s)
			}
		}
	}
	newestFirst(out)
	return out, nil
}

// Find looks for <root>/<any folder>/<id>/chat_history.jsonl. A session
// folder without a chat history yet (Grok creates it at the first turn) is
// Present: the id is taken.
func (g grokSource) Find(env Env, id string) (Session, Existence, error) {
	if !validID(id) {
		return Session{}, Absent, nil
	}
	root := g.StoreRoot(env)
	ents, err := os.ReadDir(root)
	if err != nil {
		ex, err := findResult(err)
		return Session{}, ex, wrapFind("grok", err)
	}
	var unreadable error
	for i, e := range ents {
		if i >= maxFindEntries {
			return Session{}, Unknown, fmt.Errorf("find grok session: more than %d entries in %s", maxFindEntries, root)
		}
		dir := filepath.Join(root, e.Name(), id)
		fi, err := os.Stat(dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) && unreadable == nil {
			unreadable = err
		}
		if err != nil || !fi.IsDir() {
			continue
		}
		s := Session{Harness: "grok", ID: id, Path: filepath.Join(dir, grokChatFile), Cwd: grokDecodeCwd(filepath.Join(root, e.Name()))}
		if st, ok := statSession(s); ok {
			s = st
		}
		return s, Present, nil
	}
	if unreadable != nil {
		return Session{}, Unknown, wrapFind("grok", unreadable)
	}
	return Session{}, Absent, nil
}

// grokDecodeCwd recovers the cwd of a session folder group.
func grokDecodeCwd(dir string) string {
	if s, err := url.PathUnescape(filepath.Base(dir)); err == nil && filepath.IsAbs(s) {
		return s
	}
	b, _ := os.ReadFile(filepath.Join(dir, ".cwd"))
	return strings.TrimSpace(string(b))
}

func (grokSource) Read(ctx context.Context, s Session, from Cursor, opt ReadOptions, emit func(Batch) error) error {
	return readJSONL(ctx, s.Path, from, opt, grokParser{}, emit)
}

// grokParser maps chat_history.jsonl items (ConversationItem, tagged by
// "type"): real user text, assistant text and tool calls, tool results.
// The system item (it carries our --rules packet too), synthetic user
// items (project instructions, reminders, auto-continue...), images,
// reasoning and backend tool calls are losses. Items have no id or time:
// the record id is a digest of the line, so a history Grok rewrites
// (compaction, rewind) re-imports only lines that changed.
type grokParser struct{}

func (grokParser) parse(rec []byte, off int64, out *sink) {
	base := Event{RecordID: lineID(rec)}
	switch typ := str(jsonx.Get(rec, "type")); typ {
	case "user":
		grokUser(rec, off, base, out)
	case "assistant":
		base.Kind, base.Role, base.Content = KindMessage, RoleAssistant, str(jsonx.Get(rec, "content"))
		textEvent(out, off, base, nil)
		i := 0
		jsonx.Elems(jsonx.Get(rec, "tool_calls"), func(tc []byte) bool {
			i++
			name, id := str(jsonx.Get(tc, "name")), str(jsonx.Get(tc, "id"))
			args := stringArgs(str(jsonx.Get(tc, "arguments")))
			e := base
			e.BlockIndex, e.Kind, e.Content = i, KindToolCall, toolCallContent(name, args)
			e.Metadata = map[string]any{"tool": name, "call_id": id}
			out.event(e)
			return true
		})
	case "tool_result":
		text, rep := grokBashStatus(str(jsonx.Get(rec, "content")))
		base.Kind, base.Role, base.Content = KindToolResult, RoleTool, text
		base.Metadata = map[string]any{"call_id": str(jsonx.Get(rec, "tool_call_id"))}
		rep.apply(base.Metadata)
		toolResultEvent(out, off, base)
		if n := len(jsonx.Get(rec, "images")); n > 2 {
			out.loss(off, "grok tool result images not imported")
		}
	case "system":
		out.loss(off, "grok system prompt not imported")
	case "reasoning", "backend_tool_call":
		out.loss(off, "grok "+typ+" item not imported")
	default:
		out.loss(off, fmt.Sprintf("grok item of type %q skipped", typ))
	}
}

// grokUser imports the text parts of a real user item.
func grokUser(rec []byte, off int64, base Event, out *sink) {
	if reason := str(jsonx.Get(rec, "synthetic_reason")); reason != "" {
		out.loss(off, "synthetic grok user item skipped ("+reason+")")
		return
	}
	var texts []string
	images := 0
	jsonx.Elems(jsonx.Get(rec, "content"), func(p []byte) bool {
		if str(jsonx.Get(p, "type")) == "text" {
			texts = append(texts, str(jsonx.Get(p, "text")))
		} else {
			images++
		}
		return true
	})
	if images > 0 {
		out.loss(off, fmt.Sprintf("%d grok image part(s) not imported", images))
	}
	base.Kind, base.Role, base.Content = KindMessage, RoleUser, strings.Join(texts, "\n")
	textEvent(out, off, base, nil)
}

// Grok Build 1.0.6's bash tool heads a command's output with one line
// (xai-grok-tools grok_build/bash format_default_prompt; the concise
// variant says "Exit code: " instead of "exit: "): "exit: N" or "exit:
// killed (reason)", then annotations " [truncated: …]" and " [signal=S]".
var grokExitHeads = []string{"exit: ", "Exit code: "}

// grokBashStatus takes that header line into metadata.
func grokBashStatus(text string) (string, execReport) {
	line, rest, _ := cutLine(text)
	var head string
	for _, p := range grokExitHeads {
		if h, ok := strings.CutPrefix(line, p); ok {
			head = h
		}
	}
	var rep execReport
	status, annots, _ := strings.Cut(head, " [")
	if annots != "" {
		annots = "[" + annots
	}
	switch {
	case head == "":
		return text, execReport{}
	case strings.HasPrefix(status, "killed (") && strings.HasSuffix(status, ")"):
		rep.signal = strings.TrimSuffix(strings.TrimPrefix(status, "killed ("), ")")
	case !rep.setExit(status):
		return text, execReport{}
	}
	for annots != "" {
		a, more, ok := strings.Cut(annots, "] ")
		if !ok {
			a, more = strings.TrimSuffix(annots, "]"), ""
			if a == annots {
				return text, execReport{}
			}
		}
		switch {
		case strings.HasPrefix(a, "[truncated: "):
			rep.truncated = true
		case strings.HasPrefix(a, "[signal="):
			rep.signal = strings.TrimPrefix(a, "[signal=")
		default:
			return text, execReport{}
		}
		annots = more
	}
	return outputOrNone(rest), rep
}
