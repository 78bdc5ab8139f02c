package transcript

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOmpTitleRewriteKeepsCursor: OMP rewrites its line-1 title slot in
// place (same length) after the first turn; a cursor taken before that
// still resumes exactly where it was, with no rewrite loss and no replay.
// A rewrite of anything after the slot is still detected.
func TestOmpTitleRewriteKeepsCursor(t *testing.T) {
	data, err := os.ReadFile("testdata/real/omp-18.2.3/print-resume.jsonl")
	if err != nil {
		t.Skip("omp fixtures not captured")
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	writeFile(t, path, string(data))
	first := readAll(t, OmpSource(), path, "", ReadOptions{})
	line1 := data[:bytes.IndexByte(data, '\n')]
	retitled := bytes.Replace(line1, []byte(`"title":""`), []byte(`"title":"X"`), 1)
	retitled = bytes.Replace(retitled, []byte(`  "}`), []byte(` "}`), 1)
	if len(retitled) != len(line1) {
		t.Fatalf("retitled slot is %d bytes, want %d", len(retitled), len(line1))
	}
	writeFile(t, path, string(retitled)+string(data[len(line1):])+`{"type":"message","id":"n1","parentId":"x","message":{"role":"user","content":"more"}}`+"\n")
	rest := readAll(t, OmpSource(), path, first.last(""), ReadOptions{})
	if len(rest.events) != 1 || rest.events[0].Content != "more" || hasLoss(rest.losses, "rewritten") {
		t.Fatalf("after a title rewrite: events %+v, losses %v; want only the new message", rest.events, rest.losses)
	}
	body := strings.Replace(string(data), "again", "AGAIN", 1)
	writeFile(t, path, body)
	again := readAll(t, OmpSource(), path, first.last(""), ReadOptions{})
	if !hasLoss(again.losses, "rewritten") {
		t.Errorf("a rewrite after the title slot was not detected: %v", again.losses)
	}
}

// TestOmpProjectDir mirrors session-paths.ts getDefaultSessionDirName.
func TestOmpProjectDir(t *testing.T) {
	for _, tt := range []struct{ cwd, want string }{
		{"/home/u/work/repo", "-work-repo"},
		{"/home/u", "-"},
		{"/tmp/x/repo", "-tmp-x-repo"},
		{"/tmp", "-tmp"},
		{"/srv/repo", "--srv-repo--"},
		{"/home/uu/repo", "--home-uu-repo--"},
	} {
		if got := OmpProjectDir(tt.cwd, "/home/u", "/tmp"); got != tt.want {
			t.Errorf("OmpProjectDir(%q) = %q, want %q", tt.cwd, got, tt.want)
		}
	}
}

// TestOmpAgentUserMessage: a user message the agent attributed to itself
// is a loss, not the user's prompt.
func TestOmpAgentUserMessage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	writeFile(t, path, `{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":[{"type":"text","text":"notice"}],"attribution":"agent"}}`+"\n"+
		`{"type":"message","id":"b","parentId":"a","message":{"role":"user","content":[{"type":"text","text":"typed"}],"attribution":"user"}}`+"\n")
	r := readAll(t, OmpSource(), path, "", ReadOptions{})
	if len(r.events) != 1 || r.events[0].Content != "typed" || len(r.losses) != 1 {
		t.Errorf("events %+v, losses %v", r.events, r.losses)
	}
}

// OMP's wall-time notice and Pi's exit paragraph become metadata; other
// notices stay with the output.
func TestOmpBashStatus(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		exit     int     // -1: none
		wall     float64 // -1: none
	}{
		{"hello\n\n\nWall time: 2.34 seconds", "hello\n", -1, 2.34},
		{"err\n\nWall time: 0.10 seconds\n\nCommand exited with code 3", "err", 3, 0.10},
		{"\n\nWall time: 0.01 seconds", noOutput, -1, 0.01},
		{"x\n\nWall time: 1.00 seconds\nTimeout clamped to 5s", "x\n\nWall time: 1.00 seconds\nTimeout clamped to 5s", -1, -1},
		{"Wall time: soon", "Wall time: soon", -1, -1},
	} {
		got, rep := ompBashStatus(tc.in)
		exit, wall := -1, -1.0
		if rep.exitCode != nil {
			exit = *rep.exitCode
		}
		if rep.wallTime != nil {
			wall = *rep.wallTime
		}
		if got != tc.want || exit != tc.exit || wall != tc.wall {
			t.Errorf("ompBashStatus(%q) = %q, %d, %v; want %q, %d, %v", tc.in, got, exit, wall, tc.want, tc.exit, tc.wall)
		}
	}
}
