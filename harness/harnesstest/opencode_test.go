package harnesstest

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// opencodeRows returns count(*) of a query over the fake's store.
func (f *fakeEnv) opencodeCount(t *testing.T, q string, args ...any) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(f.home, ".local/share/opencode/opencode.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

func TestFakeOpenCode_RunAndResume(t *testing.T) {
	f := newFakeEnv(t)
	res := f.run(runOpenCode, "", false, "run", "--format", "json", "hello RUN_TOOL", "--auto")
	if res.code != 0 || !strings.Contains(res.stdout, `"sessionID":"ses_`) || !strings.Contains(res.stdout, "TOOL_DONE: hello") {
		t.Fatalf("run: %+v", res)
	}
	id := f.lastLog().SessionID
	if !strings.HasPrefix(id, "ses_") || f.opencodeCount(t, `SELECT COUNT(*) FROM session WHERE id = ? AND directory = ?`, id, f.cwd) != 1 {
		t.Fatalf("session %q not recorded for %s", id, f.cwd)
	}
	if n := f.opencodeCount(t, `SELECT COUNT(*) FROM part WHERE session_id = ? AND json_extract(data, '$.state.status') = 'completed'`, id); n != 1 {
		t.Errorf("completed tool parts = %d, want 1", n)
	}
	if res := f.run(runOpenCode, "", false, "run", "--session", id, "again"); res.code != 0 || f.lastLog().SessionID != id {
		t.Fatalf("resume: %+v, session %s", res, f.lastLog().SessionID)
	}
	if n := f.opencodeCount(t, `SELECT COUNT(*) FROM session`); n != 1 {
		t.Errorf("sessions after resume = %d, want 1", n)
	}
	if res := f.run(runOpenCode, "", false, "run", "--fork", "-s", id, "forked"); res.code != 0 || f.lastLog().SessionID == id {
		t.Fatalf("fork kept the id: %+v", res)
	}
	if res := f.run(runOpenCode, "", false, "run", "-s", "ses_missing", "x"); res.code != 1 || !strings.Contains(res.stderr, "Session not found") {
		t.Errorf("missing session: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(f.home, ".local/share/opencode/opencode.db-wal")); err == nil {
		t.Error("the WAL is left behind after the fake exited (OpenCode checkpoints on close)")
	}
}

func TestFakeOpenCode_Instructions(t *testing.T) {
	f := newFakeEnv(t)
	pk := filepath.Join(f.home, "packet.md")
	if err := os.WriteFile(pk, []byte("PACKET TEXT"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.env["OPENCODE_CONFIG_CONTENT"] = `{"instructions":["` + pk + `","/nonexistent.md"]}`
	if res := f.run(runOpenCode, "", false, "run", "hi"); res.code != 0 || f.lastLog().Context != "PACKET TEXT" {
		t.Fatalf("context %q (%+v)", f.lastLog().Context, res)
	}
	f.env["OPENCODE_CONFIG_CONTENT"] = `{not json`
	if res := f.run(runOpenCode, "", false, "run", "hi"); res.code == 0 {
		t.Error("malformed OPENCODE_CONFIG_CONTENT accepted")
	}
}

func TestFakeOpenCode_ArgvRules(t *testing.T) {
	for _, tt := range []struct {
		args     []string
		tty      bool
		code     int
		out, err string
	}{
		{[]string{"--version"}, false, 0, OpenCodeVersion, ""},
		{[]string{"session", "list"}, false, 0, "opencode session", ""},
		{[]string{"run"}, false, 1, "", "You must provide a message"},
		{[]string{}, false, 1, "", "needs a terminal"},
		{[]string{"run", "--bogus", "x"}, false, 1, "", "Unknown argument: bogus"},
		{[]string{"run", "-s"}, false, 1, "", "Not enough arguments"},
		{[]string{"--session"}, true, 1, "", "Not enough arguments"},
	} {
		f := newFakeEnv(t)
		res := f.run(runOpenCode, "", tt.tty, tt.args...)
		if res.code != tt.code || !strings.Contains(res.stdout, tt.out) || !strings.Contains(res.stderr, tt.err) {
			t.Errorf("%q: %+v; want code %d, stdout %q, stderr %q", tt.args, res, tt.code, tt.out, tt.err)
		}
	}
}
