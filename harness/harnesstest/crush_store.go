package harnesstest

import (
	"database/sql"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"
	_ "modernc.org/sqlite" // the fake writes Crush's SQLite store
)

// CrushSchema is Crush's schema as its migrations create it (see the
// file's header); the fixture generator in transcript reads the same file.
//
//go:embed crush_schema.sql
var CrushSchema string

// crushStore is the fake's read-write WAL connection to a project's
// crush.db.
type crushStore struct {
	db  *sql.DB
	inv invocation
}

// crushGlobalData is Crush's global data dir (GlobalConfigData's dir):
// $CRUSH_GLOBAL_DATA, $XDG_DATA_HOME/crush or ~/.local/share/crush.
func crushGlobalData(getenv func(string) string) string {
	if v := getenv("CRUSH_GLOBAL_DATA"); v != "" {
		return v
	}
	if v := getenv("XDG_DATA_HOME"); v != "" {
		return filepath.Join(v, "crush")
	}
	return filepath.Join(getenv("HOME"), ".local", "share", "crush")
}

// openCrushStore opens (creating) <dataDir>/crush.db in WAL mode, as Crush
// does, after recording the project in projects.json.
func openCrushStore(inv invocation, cwd, dataDir string) (*crushStore, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create crush data dir: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dataDir, ".gitignore"), []byte("*\n"), 0o600); err != nil {
		return nil, fmt.Errorf("create crush data dir: %w", err)
	}
	if err := registerCrushProject(inv, cwd, dataDir); err != nil {
		return nil, err
	}
	path := filepath.Join(dataDir, "crush.db")
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "foreign_keys(ON)")
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: filepath.ToSlash(path)}).EscapedPath()+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open crush store: %w", err)
	}
	db.SetMaxOpenConns(1)
	var migrated int
	if err := db.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE name = 'sessions'`).Scan(&migrated); err != nil {
		db.Close()
		return nil, fmt.Errorf("open crush store %s: %w", path, err)
	}
	if migrated != 0 {
		return &crushStore{db: db, inv: inv}, nil
	}
	if _, err := db.Exec(CrushSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("migrate crush store %s: %w", path, err)
	}
	return &crushStore{db: db, inv: inv}, nil
}

func (s *crushStore) close() error { return s.db.Close() }

// registerCrushProject adds or refreshes {path, data_dir} in projects.json
// (internal/projects Register).
func registerCrushProject(inv invocation, cwd, dataDir string) error {
	dir := crushGlobalData(inv.getenv)
	path := filepath.Join(dir, "projects.json")
	var list struct {
		Projects []map[string]any `json:"projects"`
	}
	if data, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(data, &list); err != nil {
			return fmt.Errorf("read projects list: %w", err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read projects list: %w", err)
	}
	kept := list.Projects[:0]
	for _, p := range list.Projects {
		if p["path"] != cwd {
			kept = append(kept, p)
		}
	}
	entry := map[string]any{"path": cwd, "data_dir": dataDir, "last_accessed": inv.now().UTC().Format(time.RFC3339Nano)}
	list.Projects = append([]map[string]any{entry}, kept...)
	data, _ := json.MarshalIndent(list, "", "  ")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create crush global data dir: %w", err)
	}
	return os.WriteFile(path, data, 0o600)
}

// selectSession returns the session of this run: -s (an id or a unique
// prefix, resumed), -C (the newest top-level session) or a new one.
func (s *crushStore) selectSession(a crushArgs) (string, error) {
	if a.session != "" {
		var ids []string
		rows, err := s.db.Query(`SELECT id FROM sessions WHERE id = ? OR id LIKE ? || '%'`, a.session, a.session)
		if err != nil {
			return "", fmt.Errorf("find session: %w", err)
		}
		for rows.Next() {
			var id string
			_ = rows.Scan(&id)
			ids = append(ids, id)
		}
		rows.Close()
		if len(ids) != 1 {
			return "", fmt.Errorf("session not found: %s", a.session)
		}
		return ids[0], nil
	}
	if a.cont {
		var id string
		err := s.db.QueryRow(`SELECT id FROM sessions WHERE parent_session_id IS NULL ORDER BY updated_at DESC LIMIT 1`).Scan(&id)
		if err == nil {
			return id, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return "", fmt.Errorf("find the last session: %w", err)
		}
	}
	id := uuid.NewString()
	now := s.inv.now().Unix()
	_, err := s.db.Exec(`INSERT INTO sessions (id, title, updated_at, created_at) VALUES (?, 'New Session', ?, ?)`, id, now, now)
	if err == nil { // the title is generated in a child session (internal/session CreateTitleSession)
		_, err = s.db.Exec(`INSERT INTO sessions (id, parent_session_id, title, updated_at, created_at)
			VALUES ('title-' || ?, ?, 'Generate a title', ?, ?)`, id, id, now, now)
	}
	if err != nil {
		return "", fmt.Errorf("create session: %w", err)
	}
	return id, nil
}

// turn records one exchange the way Crush does: the user message, the
// assistant message created empty and updated as it streams (with a
// finished tool_call and a tool_use finish for RUN_TOOL, then a tool
// message with the result and a second assistant message), each final
// assistant message closed by a finish part and finished_at. With
// FAKE_SLOW each write is its own statement after FAKE_SLEEP; with
// FAKE_PARTIAL the last reply is left streaming (no finish).
func (s *crushStore) turn(session, prompt string, k knobs) error {
	w := crushWriter{s: s, session: session, k: k}
	w.insert("user", []any{crushPart("text", map[string]any{"text": prompt})})
	out := toolOutputFor(prompt)
	if out != "" {
		call := "call_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:16]
		a := w.insert("assistant", []any{})
		w.update(a, true, crushPart("tool_call", map[string]any{"id": call, "name": "bash",
			"input": `{"command":"echo hello"}`, "provider_executed": false, "finished": true}),
			crushPart("finish", map[string]any{"reason": "tool_use", "time": s.inv.now().Unix()}))
		w.insert("tool", []any{crushPart("tool_result", map[string]any{"tool_call_id": call, "name": "bash",
			"content": out, "data": "", "mime_type": "", "metadata": "", "is_error": false})})
	}
	a := w.insert("assistant", []any{})
	parts := []any{crushPart("text", map[string]any{"text": replyFor(prompt, out)})}
	if !k.partial {
		parts = append(parts, crushPart("finish", map[string]any{"reason": "end_turn", "time": s.inv.now().Unix()}))
	}
	w.update(a, !k.partial, parts...)
	w.exec(`UPDATE sessions SET title = ?, updated_at = ? WHERE id = ?`, truncRunes(prompt, 40), s.inv.now().Unix(), session)
	return w.err
}

func crushPart(typ string, data map[string]any) map[string]any {
	return map[string]any{"type": typ, "data": data}
}

// crushWriter writes the rows of one turn, keeping the first error.
type crushWriter struct {
	s       *crushStore
	session string
	k       knobs
	err     error
	wrote   bool
}

func (w *crushWriter) insert(role string, parts []any) string {
	id := uuid.NewString()
	now := w.s.inv.now().Unix()
	w.exec(`INSERT INTO messages (id, session_id, role, parts, model, provider, is_summary_message, created_at, updated_at)
		VALUES (?, ?, ?, ?, 'mock-model', 'mock', 0, ?, ?)`, id, w.session, role, jsonText(parts), now, now)
	return id
}

func (w *crushWriter) update(id string, finished bool, parts ...any) {
	var fin any
	if finished {
		fin = w.s.inv.now().Unix()
	}
	w.exec(`UPDATE messages SET parts = ?, finished_at = ?, updated_at = ? WHERE id = ?`,
		jsonText(parts), fin, w.s.inv.now().Unix(), id)
}

func (w *crushWriter) exec(q string, args ...any) {
	if w.err != nil {
		return
	}
	if w.wrote && w.k.slow && w.k.sleep > 0 {
		w.s.inv.sleep(w.k.sleep)
	}
	w.wrote = true
	if _, err := w.s.db.Exec(q, args...); err != nil {
		w.err = fmt.Errorf("write crush store: %w", err)
	}
}
