package harnesstest

import (
	"path/filepath"

	"github.com/ai-memory/ai-memory/transcript"
)

// Antigravity's conversations are imported from the history.jsonl shared
// by all of them (beside the conversations/ directory), and a turn gives
// one event (its prompt), so the checks run over a conversation of three
// turns: the opening prompt and two typed after resuming it.
func init() {
	journals["antigravity"] = func(s transcript.Session) string {
		return filepath.Join(filepath.Dir(filepath.Dir(s.Path)), "history.jsonl")
	}
	resumeOpts["antigravity"] = "--conversation"
}
