package ledgersync

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// Dir is the directory of a data home that holds what is owed to the
// shared ledger: run journals and offline-run notes.
func Dir(home string) string { return filepath.Join(home, "sync") }

// Journal record operations, in the order a run makes them.
const (
	opAppend  = "append"  // a batch of events with its cursor
	opLink    = "link"    // LinkSession
	opSession = "session" // SetRunSession
	opFinish  = "finish"  // FinishRun
)

// record is one line of a journal.
type record struct {
	Op         string        `json:"op"`
	Run        string        `json:"run,omitempty"`
	Workstream string        `json:"workstream,omitempty"`
	Harness    string        `json:"harness,omitempty"`
	Session    string        `json:"session,omitempty"`
	Events     []event       `json:"events,omitempty"`
	Cursor     *cursorUpdate `json:"cursor,omitempty"`
	ExitCode   *int          `json:"exit_code,omitempty"`
}

// event is a ledger.EventInput as the journal keeps it: redacted already
// (ledger.Sanitize), so no secret reaches the disk, and with ByTime.
type event struct {
	Harness         string         `json:"harness"`
	NativeSessionID string         `json:"native_session_id"`
	SourceRecordID  string         `json:"source_record_id"`
	BlockIndex      int            `json:"block_index"`
	Kind            ledger.Kind    `json:"kind"`
	Role            string         `json:"role,omitempty"`
	OccurredAt      time.Time      `json:"occurred_at,omitzero"`
	Metadata        map[string]any `json:"metadata,omitempty"`
	Content         string         `json:"content"`
	ByTime          bool           `json:"by_time,omitempty"`
}

type cursorUpdate struct {
	Harness         string `json:"harness"`
	NativeSessionID string `json:"native_session_id"`
	SourceCursor    string `json:"source_cursor"`
}

// batchRecord turns a batch into its record, redacting the events.
func batchRecord(b ledger.Batch) (record, error) {
	r := record{Op: opAppend, Run: b.RunID, Workstream: b.WorkstreamID}
	for i, e := range b.Events {
		s, err := ledger.Sanitize(e)
		if err != nil {
			return record{}, fmt.Errorf("journal event %d: %w", i, err)
		}
		r.Events = append(r.Events, event{Harness: s.Harness, NativeSessionID: s.NativeSessionID, SourceRecordID: s.SourceRecordID,
			BlockIndex: s.BlockIndex, Kind: s.Kind, Role: s.Role, OccurredAt: s.OccurredAt, Metadata: s.Metadata, Content: s.Content, ByTime: e.ByTime})
	}
	if c := b.Cursor; c != nil {
		r.Cursor = &cursorUpdate{Harness: c.Harness, NativeSessionID: c.NativeSessionID, SourceCursor: c.SourceCursor}
	}
	return r, nil
}

// batch is the ledger batch of an append record.
func (r record) batch() ledger.Batch {
	b := ledger.Batch{WorkstreamID: r.Workstream, RunID: r.Run, Events: make([]ledger.EventInput, 0, len(r.Events))}
	for _, e := range r.Events {
		b.Events = append(b.Events, ledger.EventInput{Harness: e.Harness, NativeSessionID: e.NativeSessionID, SourceRecordID: e.SourceRecordID,
			BlockIndex: e.BlockIndex, Kind: e.Kind, Role: e.Role, OccurredAt: e.OccurredAt, Metadata: e.Metadata, Content: e.Content, ByTime: e.ByTime})
	}
	if c := r.Cursor; c != nil {
		b.Cursor = &ledger.CursorUpdate{Harness: c.Harness, NativeSessionID: c.NativeSessionID, SourceCursor: c.SourceCursor}
	}
	return b
}

// journalPrefix and journalExt name a run's journal: journal-<run>.jsonl.
const (
	journalPrefix = "journal-"
	journalExt    = ".jsonl"
)

// JournalPath is the journal of run runID in home.
func JournalPath(home, runID string) string {
	return filepath.Join(Dir(home), journalPrefix+runID+journalExt)
}

// appendRecord adds one line to the journal at path and fsyncs it before
// returning: a record the caller was told is kept survives a crash. The
// file is opened per record, so `ledger sync` removing a replayed journal
// never leaves a writer on an unlinked file.
func appendRecord(path string, r record) error {
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode journal record: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create journal directory: %w", err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("open journal: %w", err)
	}
	_, err = f.Write(append(line, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write journal %s: %w", path, err)
	}
	return nil
}

// readJournal reads the records of the journal at path. A last line
// without its newline is a write cut short by a crash (its caller was
// never told it was kept) and is ignored; any other bad line is an error.
func readJournal(path string) ([]record, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open journal: %w", err)
	}
	defer f.Close()
	var out []record
	rd := bufio.NewReader(f)
	for n := 1; ; n++ {
		line, err := rd.ReadString('\n')
		if errors.Is(err, io.EOF) {
			return out, nil // the end, or a torn last line
		}
		if err != nil {
			return nil, fmt.Errorf("read journal %s: %w", path, err)
		}
		var r record
		if err := json.Unmarshal([]byte(strings.TrimSpace(line)), &r); err != nil {
			return nil, fmt.Errorf("journal %s:%d: %w; move the file aside to skip it", path, n, err)
		}
		out = append(out, r)
	}
}

// journals lists the run journals of home with their run ids.
func journals(home string) (map[string]string, error) {
	paths, err := filepath.Glob(filepath.Join(Dir(home), journalPrefix+"*"+journalExt))
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(paths))
	for _, p := range paths {
		id := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), journalPrefix), journalExt)
		out[id] = p
	}
	return out, nil
}
