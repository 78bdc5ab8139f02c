package harnesstest

import (
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // the fake writes OpenCode's SQLite store
)

// opencodeSchema is the part of OpenCode 1.18.33's schema the fake writes
// (same tables, columns and indexes as the real migration; the project
// table and the v2 tables are left out).
const opencodeSchema = "CREATE TABLE IF NOT EXISTS `session` (`id` text PRIMARY KEY, `project_id` text NOT NULL, " +
	"`workspace_id` text, `parent_id` text, `slug` text NOT NULL, `directory` text NOT NULL, `path` text, " +
	"`title` text NOT NULL, `version` text NOT NULL, `share_url` text, `summary_additions` integer, " +
	"`summary_deletions` integer, `summary_files` integer, `summary_diffs` text, `metadata` text, " +
	"`cost` real DEFAULT 0 NOT NULL, `tokens_input` integer DEFAULT 0 NOT NULL, `tokens_output` integer DEFAULT 0 NOT NULL, " +
	"`tokens_reasoning` integer DEFAULT 0 NOT NULL, `tokens_cache_read` integer DEFAULT 0 NOT NULL, " +
	"`tokens_cache_write` integer DEFAULT 0 NOT NULL, `revert` text, `permission` text, `agent` text, `model` text, " +
	"`time_created` integer NOT NULL, `time_updated` integer NOT NULL, `time_compacting` integer, `time_archived` integer);\n" +
	"CREATE TABLE IF NOT EXISTS `message` (`id` text PRIMARY KEY, `session_id` text NOT NULL, " +
	"`time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL);\n" +
	"CREATE TABLE IF NOT EXISTS `part` (`id` text PRIMARY KEY, `message_id` text NOT NULL, `session_id` text NOT NULL, " +
	"`time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL);\n" +
	"CREATE INDEX IF NOT EXISTS `message_session_time_created_id_idx` ON `message` (`session_id`,`time_created`,`id`);\n" +
	"CREATE INDEX IF NOT EXISTS `part_message_id_id_idx` ON `part` (`message_id`,`id`);\n" +
	"CREATE INDEX IF NOT EXISTS `part_session_idx` ON `part` (`session_id`);\n" +
	"CREATE INDEX IF NOT EXISTS `session_parent_idx` ON `session` (`parent_id`);"

// opencodeStore is the fake's read-write WAL connection to opencode.db.
type opencodeStore struct {
	db  *sql.DB
	inv invocation
}

// openOpenCodeStore opens (creating) $XDG_DATA_HOME/opencode/opencode.db,
// or ~/.local/share/opencode/opencode.db, in WAL mode as OpenCode does.
func openOpenCodeStore(inv invocation) (*opencodeStore, error) {
	dir := inv.getenv("XDG_DATA_HOME")
	if dir == "" {
		dir = filepath.Join(inv.getenv("HOME"), ".local", "share")
	}
	dir = filepath.Join(dir, "opencode")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create opencode data dir: %w", err)
	}
	path := filepath.Join(dir, "opencode.db")
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "synchronous(NORMAL)")
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: filepath.ToSlash(path)}).EscapedPath()+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open opencode store: %w", err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(opencodeSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("migrate opencode store %s: %w", path, err)
	}
	return &opencodeStore{db: db, inv: inv}, nil
}

func (s *opencodeStore) close() error { return s.db.Close() }

// opencodeSeq keeps ids of one process strictly increasing.
var opencodeSeq atomic.Int64

// opencodeID makes an id like OpenCode's: prefix, 12 hex digits of time
// (so ids sort by creation), 14 random base62 characters.
func opencodeID(prefix string, now time.Time) string {
	n := now.UnixMilli()*0x1000 + opencodeSeq.Add(1)%0x1000
	const alpha = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	b := make([]byte, 14)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alpha[int(b[i])%len(alpha)]
	}
	return fmt.Sprintf("%s_%012x%s", prefix, n&0xffffffffffff, b)
}

// selectSession returns the session of this run: -s (resumed, or forked
// with --fork), -c (the newest top-level session of cwd) or a new one.
func (s *opencodeStore) selectSession(a opencodeArgs, cwd string) (string, error) {
	src := a.session
	if a.cont && src == "" {
		err := s.db.QueryRow(`SELECT id FROM session WHERE parent_id IS NULL AND directory = ?
			ORDER BY time_updated DESC, id DESC LIMIT 1`, cwd).Scan(&src)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return "", fmt.Errorf("find the last session: %w", err)
		}
	}
	if src != "" {
		var n int
		if err := s.db.QueryRow(`SELECT COUNT(*) FROM session WHERE id = ?`, src).Scan(&n); err != nil || n == 0 {
			return "", fmt.Errorf("Session not found: %s", src)
		}
		if !a.fork {
			return src, nil
		}
	}
	id, err := s.newSession(cwd)
	if err == nil && src != "" {
		err = s.copyParts(src, id)
	}
	return id, err
}

func (s *opencodeStore) newSession(cwd string) (string, error) {
	now := s.inv.now()
	id := opencodeID("ses", now)
	_, err := s.db.Exec(`INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated)
		VALUES (?, 'global', ?, ?, 'New session', ?, ?, ?)`, id, id[4:12], cwd, OpenCodeVersion, now.UnixMilli(), now.UnixMilli())
	if err != nil {
		return "", fmt.Errorf("create session: %w", err)
	}
	return id, nil
}

// copyParts gives a forked session the source's messages and parts, under
// new ids, as `--fork` does.
func (s *opencodeStore) copyParts(from, to string) error {
	rows, err := s.db.Query(`SELECT m.data, p.data FROM part p JOIN message m ON m.id = p.message_id
		WHERE p.session_id = ? ORDER BY p.id`, from)
	if err != nil {
		return fmt.Errorf("fork session: %w", err)
	}
	type pair struct{ msg, part string }
	var all []pair
	for rows.Next() {
		var p pair
		if err := rows.Scan(&p.msg, &p.part); err != nil {
			rows.Close()
			return err
		}
		all = append(all, p)
	}
	rows.Close()
	for _, p := range all {
		now := s.inv.now().UnixMilli()
		mid := opencodeID("msg", s.inv.now())
		if _, err := s.db.Exec(`INSERT INTO message VALUES (?, ?, ?, ?, ?)`, mid, to, now, now, p.msg); err != nil {
			return err
		}
		if _, err := s.db.Exec(`INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)`, opencodeID("prt", s.inv.now()), mid, to, now, now, p.part); err != nil {
			return err
		}
	}
	return nil
}

// turn records one exchange the way OpenCode does: the user message and
// its text part, an assistant message with step markers, a bash tool part
// written running then completed (for RUN_TOOL), and the reply text. With
// FAKE_SLOW each write is its own transaction after FAKE_SLEEP; with
// FAKE_PARTIAL the reply is left streaming (no time.end).
func (s *opencodeStore) turn(session, cwd, prompt string, k knobs, inv invocation) error {
	w := opencodeWriter{s: s, session: session, k: k, inv: inv}
	user := w.message(map[string]any{"role": "user", "agent": "build",
		"model": map[string]any{"providerID": "mock", "modelID": "mock-model"}})
	w.part(user, "", map[string]any{"type": "text", "text": prompt})
	asst := w.message(map[string]any{"role": "assistant", "parentID": user, "mode": "build", "agent": "build",
		"path": map[string]any{"cwd": cwd, "root": cwd}, "modelID": "mock-model", "providerID": "mock"})
	w.part(asst, "", map[string]any{"type": "step-start"})
	out := toolOutputFor(prompt)
	if out != "" {
		call := "call_fake_" + opencodeID("c", inv.now())[2:14]
		tool := w.part(asst, "", map[string]any{"type": "tool", "tool": "bash", "callID": call,
			"state": map[string]any{"status": "running", "input": map[string]any{"command": "echo hello"}}})
		w.part(asst, tool, map[string]any{"type": "tool", "tool": "bash", "callID": call,
			"state": map[string]any{"status": "completed", "input": map[string]any{"command": "echo hello"},
				"output": out, "title": "echo hello", "metadata": map[string]any{"exit": 0}}})
	}
	t := map[string]any{"start": inv.now().UnixMilli()}
	if !k.partial {
		t["end"] = inv.now().UnixMilli()
	}
	w.part(asst, "", map[string]any{"type": "text", "text": replyFor(prompt, out), "time": t})
	w.part(asst, "", map[string]any{"type": "step-finish", "reason": "stop"})
	if w.err == nil {
		_, w.err = s.db.Exec(`UPDATE session SET time_updated = ? WHERE id = ?`, inv.now().UnixMilli(), session)
	}
	return w.err
}

// opencodeWriter writes rows of one turn, keeping the first error.
type opencodeWriter struct {
	s       *opencodeStore
	session string
	k       knobs
	inv     invocation
	err     error
	wrote   bool
}

func (w *opencodeWriter) pace() {
	if w.wrote && w.k.slow && w.k.sleep > 0 {
		w.inv.sleep(w.k.sleep)
	}
	w.wrote = true
}

func (w *opencodeWriter) message(data map[string]any) string {
	now := w.inv.now()
	id := opencodeID("msg", now)
	data["time"] = map[string]any{"created": now.UnixMilli()}
	w.exec(`INSERT INTO message VALUES (?, ?, ?, ?, ?)`, id, w.session, now.UnixMilli(), now.UnixMilli(), jsonText(data))
	return id
}

// part inserts a part, or rewrites the part id (a newer time_updated) when
// id is given.
func (w *opencodeWriter) part(msg, id string, data map[string]any) string {
	w.pace()
	now := w.inv.now().UnixMilli()
	if id != "" {
		w.exec(`UPDATE part SET data = ?, time_updated = MAX(time_updated + 1, ?) WHERE id = ?`, jsonText(data), now, id)
		return id
	}
	id = opencodeID("prt", w.inv.now())
	w.exec(`INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)`, id, msg, w.session, now, now, jsonText(data))
	return id
}

func (w *opencodeWriter) exec(q string, args ...any) {
	if w.err != nil {
		return
	}
	if _, err := w.s.db.Exec(q, args...); err != nil {
		w.err = fmt.Errorf("write opencode store: %w", err)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
