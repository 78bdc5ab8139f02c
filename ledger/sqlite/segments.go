package sqlite

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// segmentFS is the file-system surface segment writing needs; tests replace
// it to simulate a full disk.
type segmentFS interface {
	MkdirAll(path string, perm fs.FileMode) error
	CreateTemp(dir, pattern string) (segmentFile, error)
	Rename(oldpath, newpath string) error
	Remove(path string) error
	Stat(path string) (fs.FileInfo, error)
}

type segmentFile interface {
	io.Writer
	Name() string
	Chmod(fs.FileMode) error
	Sync() error
	Close() error
}

type osFS struct{}

func (osFS) MkdirAll(p string, m fs.FileMode) error { return os.MkdirAll(p, m) }
func (osFS) CreateTemp(d, p string) (segmentFile, error) {
	return os.CreateTemp(d, p)
}
func (osFS) Rename(o, n string) error           { return os.Rename(o, n) }
func (osFS) Remove(p string) error              { return os.Remove(p) }
func (osFS) Stat(p string) (fs.FileInfo, error) { return os.Stat(p) }

// segmentRecord is one line of a segment: everything Rebuild needs to
// restore the event row exactly.
type segmentRecord struct {
	V               int            `json:"v"`
	WorkstreamID    string         `json:"workstream_id"`
	RunID           string         `json:"run_id,omitempty"`
	Sequence        int64          `json:"sequence"`
	Order           int64          `json:"order,omitempty"` // 0: its own sequence
	EventID         string         `json:"event_id"`
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
}

const segmentVersion = 1

var safeRunID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`) })

// encodeSegment renders the records as JSONL.
func encodeSegment(recs []segmentRecord) ([]byte, error) {
	var buf []byte
	for i := range recs {
		b, err := json.Marshal(&recs[i])
		if err != nil {
			return nil, fmt.Errorf("encode segment record: %w", err)
		}
		buf = append(append(buf, b...), '\n')
	}
	return buf, nil
}

// segmentBase is <run>-<16 hex of sha256(jsonl)>: content-addressed (by
// the uncompressed JSONL), so the same events always land in the same file
// whatever the codec; the extension is added by writeSegment.
func segmentBase(runID string, jsonl []byte) string {
	sum := sha256.Sum256(jsonl)
	return runID + "-" + hex.EncodeToString(sum[:8])
}

// writeSegment writes the JSONL durably, compressed, to
// home/segments/<ws>/<base>.jsonl.zst (temp file, fsync, rename; 0600 in
// 0700 dirs). An existing target, or an uncompressed <base>.jsonl of an
// earlier version, holds the same events by construction and is reused.
// created reports whether this call made the file, so a failed transaction
// can remove exactly what it added.
func (db *DB) writeSegment(wsID, base string, jsonl []byte) (rel string, created bool, err error) {
	dir := filepath.Join(db.home, "segments", wsID)
	for _, ext := range []string{segmentExt, legacySegmentExt} {
		rel = filepath.ToSlash(filepath.Join("segments", wsID, base+ext))
		if _, err := db.segFS.Stat(filepath.Join(dir, base+ext)); err == nil {
			return rel, false, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", false, fmt.Errorf("check segment %s: %w", rel, err)
		}
	}
	rel = filepath.ToSlash(filepath.Join("segments", wsID, base+segmentExt))
	target := filepath.Join(dir, base+segmentExt)
	data, err := compressSegment(jsonl)
	if err != nil {
		return "", false, err
	}
	if err := db.segFS.MkdirAll(dir, 0o700); err != nil {
		return "", false, fmt.Errorf("create segment directory: %w", err)
	}
	if err := db.writeTempAndRename(dir, target, data); err != nil {
		return "", false, fmt.Errorf("write segment %s: %w; free disk space and retry", rel, err)
	}
	return rel, true, nil
}

func (db *DB) writeTempAndRename(dir, target string, data []byte) error {
	return db.writeFile(dir, target, data, true)
}

// writeFile writes data to a temp file in dir and renames it to target;
// with durable, the data is fsynced before the rename.
func (db *DB) writeFile(dir, target string, data []byte, durable bool) error {
	f, err := db.segFS.CreateTemp(dir, ".segment-*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = f.Chmod(0o600)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil && durable {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = db.segFS.Rename(tmp, target)
	}
	if err != nil {
		db.segFS.Remove(tmp)
	}
	return err
}
