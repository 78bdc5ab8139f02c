package durable

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// Record is one line of a segment: everything Rebuild needs to restore the
// event exactly, on any backend.
type Record struct {
	V            int    `json:"v"`
	WorkstreamID string `json:"workstream_id"`
	RunID        string `json:"run_id,omitempty"`
	Sequence     int64  `json:"sequence"`
	Order        int64  `json:"order,omitempty"` // 0: its own sequence
	// EventID is written only when the other fields do not derive it (see
	// IDDerived); a record read back always has it.
	EventID         string         `json:"event_id,omitempty"`
	Harness         string         `json:"harness"`
	NativeSessionID string         `json:"native_session_id,omitempty"`
	SourceRecordID  string         `json:"source_record_id,omitempty"`
	BlockIndex      int            `json:"block_index"`
	Kind            ledger.Kind    `json:"kind"`
	Role            string         `json:"role,omitempty"`
	OccurredAt      *time.Time     `json:"occurred_at,omitempty"`
	Metadata        map[string]any `json:"metadata,omitempty"`
	Content         string         `json:"content"`
	CreatedAt       time.Time      `json:"created_at"`
	// IDDerived says EventID is ledger.DeriveEventID of the record's own
	// fields, so the segment leaves it out: 64 hex digits that compress
	// to ~33 bytes, a fifth of a compressed segment of ~500 B events.
	IDDerived bool `json:"-"`
}

// RecordVersion is the version of Record written. Version 2 leaves out an
// event id the record's fields derive; a reader of version 1 (which
// requires the id) refuses such a line instead of misreading it.
const RecordVersion = 2

// SafeRunID is the form of a run id, which names segment files (compiled
// on first use: the {0,63} repetition alone allocates ~60 KiB).
var SafeRunID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`) })

// RunIDOf is the run id a batch's segment is named by ("import" for a batch
// without a run), or an error when it could not name a file.
func RunIDOf(b ledger.Batch) (string, error) {
	runID := b.RunID
	if runID == "" {
		runID = "import"
	}
	if !SafeRunID().MatchString(runID) {
		return "", fmt.Errorf("append: run id %q is not a valid id", b.RunID)
	}
	return runID, nil
}

// ToRecord is the segment record of a prepared event numbered seq.
func ToRecord(wsID, runID string, seq int64, p Pending, now time.Time) Record {
	r := Record{V: RecordVersion, WorkstreamID: wsID, RunID: runID, Sequence: seq, EventID: p.ID,
		Harness: p.In.Harness, NativeSessionID: p.In.NativeSessionID, SourceRecordID: p.In.SourceRecordID,
		BlockIndex: p.In.BlockIndex, Kind: p.In.Kind, Role: p.In.Role, Metadata: p.In.Metadata,
		Content: p.In.Content, CreatedAt: now, IDDerived: p.FromFields}
	if !p.In.OccurredAt.IsZero() {
		t := p.In.OccurredAt
		r.OccurredAt = &t
	}
	return r
}

// SegmentBase is <run>-<16 hex of sha256(jsonl)>: content-addressed (by
// the uncompressed JSONL), so the same events always land in the same file
// whatever the codec; the extension is added by WriteSegment.
func SegmentBase(runID string, jsonl []byte) string {
	sum := sha256.Sum256(jsonl)
	return runID + "-" + hex.EncodeToString(sum[:8])
}

// WriteSegment writes the JSONL durably, compressed, to
// home/segments/<ws>/<base>.jsonl.zst (temp file, fsync, rename; 0600 in
// 0700 dirs). An existing target, or an uncompressed <base>.jsonl of an
// earlier version, holds the same events by construction and is reused.
// created reports whether this call made the file, so a failed transaction
// can remove exactly what it added.
func (s *Store) WriteSegment(wsID, base string, jsonl []byte) (rel string, created bool, err error) {
	dir := filepath.Join(s.Root(), wsID)
	for _, ext := range []string{SegmentExt, LegacySegmentExt} {
		rel = filepath.ToSlash(filepath.Join("segments", wsID, base+ext))
		if _, err := s.FS.Stat(filepath.Join(dir, base+ext)); err == nil {
			return rel, false, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", false, fmt.Errorf("check segment %s: %w", rel, err)
		}
	}
	rel = filepath.ToSlash(filepath.Join("segments", wsID, base+SegmentExt))
	target := filepath.Join(dir, base+SegmentExt)
	data, err := CompressSegment(jsonl)
	if err != nil {
		return "", false, err
	}
	if err := s.FS.MkdirAll(dir, 0o700); err != nil {
		return "", false, fmt.Errorf("create segment directory: %w", err)
	}
	if err := s.WriteFile(dir, target, data, true); err != nil {
		return "", false, fmt.Errorf("write segment %s: %w; free disk space and retry", rel, err)
	}
	return rel, true, nil
}

// PendingSegment is the placeholder path under which a backend records the
// segment row of a batch whose segment StartSegment is still writing: no
// segment file is named so (they end in .jsonl or .jsonl.zst), and the
// transaction that records it renames it once Wait returns, so it never
// outlives that transaction.
func PendingSegment(wsID, runID string) string {
	return "segments/" + wsID + "/.pending-" + runID
}

// SegmentWrite is a segment being encoded and written in the background,
// so that a backend can insert the batch's rows on one core while the
// segment is encoded, hashed, compressed and fsynced on another. Its
// transaction must Wait before it commits: the segment is durable before
// the rows that point to it.
type SegmentWrite struct {
	done    chan struct{}
	rel     string
	created bool
	err     error
}

// StartSegment encodes recs, names the segment <run>-<hash> and writes it
// as WriteSegment does, all on a new goroutine. recs must not change until
// Wait returns.
func (s *Store) StartSegment(wsID, runID string, recs []Record) *SegmentWrite {
	w := &SegmentWrite{done: make(chan struct{})}
	go func() {
		defer close(w.done)
		data, err := EncodeSegment(recs)
		if err != nil {
			w.err = err
			return
		}
		w.rel, w.created, w.err = s.WriteSegment(wsID, SegmentBase(runID, data), data)
	}()
	return w
}

// Wait waits for the write and returns the segment's path relative to the
// data home and whether this write created the file (see WriteSegment).
func (w *SegmentWrite) Wait() (rel string, created bool, err error) {
	<-w.done
	return w.rel, w.created, w.err
}
