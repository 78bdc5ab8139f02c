package transcript

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// readResult is everything one Read handed to emit.
type readResult struct {
	events  []Event
	losses  []Loss
	cursors []Cursor
}

func (r readResult) last(from Cursor) Cursor {
	if len(r.cursors) == 0 {
		return from
	}
	return r.cursors[len(r.cursors)-1]
}

func readAll(t testing.TB, src Source, path string, from Cursor, opt ReadOptions) readResult {
	t.Helper()
	var r readResult
	err := src.Read(context.Background(), Session{Path: path}, from, opt, func(b Batch) error {
		r.events = append(r.events, b.Events...)
		r.losses = append(r.losses, b.Losses...)
		r.cursors = append(r.cursors, b.Cursor)
		return nil
	})
	if err != nil {
		t.Fatalf("Read(%s): %v", path, err)
	}
	return r
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func appendFile(t testing.TB, path, content string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
}

// treeSums returns the SHA-256 of every file under root, to prove reads
// never modify a store.
func treeSums(t testing.TB, root string) map[string]string {
	t.Helper()
	sums := map[string]string{}
	err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := sha256.Sum256(b)
		sums[p] = hex.EncodeToString(s[:]) + info.ModTime().String()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

func eventKeys(evs []Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Kind + "|" + e.RecordID + "|" + strconv.Itoa(e.BlockIndex) + "|" + e.Content
	}
	return out
}

// offsetOf is the byte offset of a JSONL source's cursor.
func offsetOf(c Cursor) int64 {
	fc, err := parseFileCursor(c)
	if err != nil {
		panic(err)
	}
	return fc.Offset
}

// sources are the sources this package's tests cover (the harness package
// owns the registry and runs the conformance suite over all of them too).
var sources = []Source{ClaudeSource(), CodexSource()}

// sourceFor returns the tested source of a canonical harness name.
func sourceFor(name string) (Source, bool) {
	for _, s := range sources {
		if s.Harness() == name {
			return s, true
		}
	}
	return nil, false
}

// fc decodes a JSONL source's cursor.
func fc(c Cursor) fileCursor {
	f, err := parseFileCursor(c)
	if err != nil {
		panic(err)
	}
	return f
}
