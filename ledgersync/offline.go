package ledgersync

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// offlineNote records a run made with --offline against the data home's
// own ledger, for `ledger sync` to copy into the shared ledger. One file
// per run (offline-<run>.json): sync removes each once copied, and a run
// starting meanwhile never races a rewrite.
type offlineNote struct {
	Run        string    `json:"run_id"`
	Workstream string    `json:"workstream_id"`
	Harness    string    `json:"harness"`
	StartedAt  time.Time `json:"started_at"`
}

const (
	offlinePrefix = "offline-"
	offlineExt    = ".json"
)

// NoteOffline records that run r was made offline in home's own ledger.
// The note is written to a temporary file and renamed, so it is whole or
// absent.
func NoteOffline(home string, r ledger.Run) error {
	b, err := json.Marshal(offlineNote{Run: r.ID, Workstream: r.WorkstreamID, Harness: r.Harness, StartedAt: r.StartedAt})
	if err != nil {
		return fmt.Errorf("encode offline note: %w", err)
	}
	dir := Dir(home)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".offline-*")
	if err != nil {
		return fmt.Errorf("write offline note: %w", err)
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, offlinePrefix+r.ID+offlineExt))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write offline note: %w", err)
	}
	return nil
}

// offlineRuns lists the offline notes of home: run id -> note path.
func offlineRuns(home string) (map[string]string, error) {
	paths, err := filepath.Glob(filepath.Join(Dir(home), offlinePrefix+"*"+offlineExt))
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(paths))
	for _, p := range paths {
		out[strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), offlinePrefix), offlineExt)] = p
	}
	return out, nil
}
