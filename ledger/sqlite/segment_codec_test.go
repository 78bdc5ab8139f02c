package sqlite

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
)

// New segments are zstd-compressed and content-addressed by their JSONL;
// old uncompressed (and gzip) segments stay readable and are reused by a
// replay of the same events, and Rebuild reads every form.
func TestSegments_CompressedLegacyAndGzipReadable(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	ws := mustWorkstream(t, db, "w")
	text := strings.Repeat("compressible segment text ", 40)
	res := mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, RunID: "r", Events: msgs("s", 0, 20, text)})
	path := filepath.Join(db.Home(), filepath.FromSlash(res.SegmentPath))
	raw, err := os.ReadFile(path)
	must(t, err)
	data, err := durable.ReadSegmentFile(path)
	must(t, err)
	if !strings.HasSuffix(path, ".jsonl.zst") || !bytes.HasPrefix(raw, durable.ZstdMagic) || bytes.Contains(raw, []byte(text)) {
		t.Fatalf("segment %s is not zstd-compressed", path)
	}
	if !bytes.Contains(data, []byte(text)) || len(raw)*4 > len(data) {
		t.Fatalf("decoded %d bytes from %d; want the JSONL, at least 4x smaller compressed", len(data), len(raw))
	}
	if durable.SegmentBase("r", data)+durable.SegmentExt != filepath.Base(path) {
		t.Fatal("the name must address the uncompressed JSONL")
	}
	// An earlier version's uncompressed segment and a gzip one for two more
	// batches (other sequences), written by hand.
	legacy := strings.ReplaceAll(strings.ReplaceAll(string(data), `"sequence":`, `"sequence":10`), text, "legacy plain")
	legacy = replaceIDs(t, 1, legacy)
	dir := filepath.Dir(path)
	must(t, os.WriteFile(filepath.Join(dir, "old-0123456789abcdef.jsonl"), []byte(legacy), 0o600))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(replaceIDs(t, 2, strings.ReplaceAll(strings.ReplaceAll(string(data), `"sequence":`, `"sequence":20`), text, "gzip form"))))
	zw.Close()
	must(t, os.WriteFile(filepath.Join(dir, "gz-0123456789abcdef.jsonl.zst"), gz.Bytes(), 0o600))
	r, err := db.Rebuild(ctx)
	if err != nil || r.Events != 60 || r.Segments != 3 {
		t.Fatalf("Rebuild = %+v, %v; want 60 events from 3 segments", r, err)
	}
	for q, want := range map[string]int{"legacy plain": 20, "gzip form": 20, "compressible": 20} {
		if hits, err := db.Search(ctx, ws.ID, q, 100); err != nil || len(hits) != want {
			t.Errorf("Search(%q) = %d, %v; want %d", q, len(hits), err, want)
		}
	}
	// A replay whose segment exists under the legacy name reuses it.
	os.Remove(path)
	must(t, os.WriteFile(strings.TrimSuffix(path, ".zst"), data, 0o600))
	rel, created, err := db.store.WriteSegment(ws.ID, durable.SegmentBase("r", data), data)
	if err != nil || created || !strings.HasSuffix(rel, ".jsonl") {
		t.Fatalf("writeSegment over a legacy file = %q, created %v, %v; want it reused", rel, created, err)
	}
}

// replaceIDs gives every event id of a JSONL segment a different (stored,
// non-derivable) value so the copy is not deduplicated away.
func replaceIDs(t *testing.T, salt int, jsonl string) string {
	t.Helper()
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSuffix(jsonl, "\n"), "\n") {
		id := fmt.Sprintf("%064x", salt*1000+i)
		if k := strings.Index(line, `"event_id":"`) + len(`"event_id":"`); k >= len(`"event_id":"`) {
			b.WriteString(line[:k] + id + line[k+64:] + "\n")
			continue
		}
		// A derivable id is left out of the segment: give the line one.
		b.WriteString(strings.Replace(line, `"harness":`, `"event_id":"`+id+`","harness":`, 1) + "\n")
	}
	return b.String()
}
