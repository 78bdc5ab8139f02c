package transcript

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// FuzzKiroRecord feeds arbitrary valid JSON lines to both engines'
// parsers: no panic, well-formed events.
func FuzzKiroRecord(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(kiroFixture, "*", "*.jsonl"))
	more, _ := filepath.Glob(filepath.Join(kiroFixture, "*", "*", "*.jsonl"))
	for _, p := range append(paths, more...) {
		fh, err := os.Open(p)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			f.Add(append([]byte(nil), sc.Bytes()...))
		}
		fh.Close()
	}
	f.Fuzz(func(t *testing.T, rec []byte) {
		if !jsonx.Valid(rec) {
			return
		}
		var out sink
		kiroV2Parser{}.parse(rec, 0, &out)
		kiroV3Parser{}.parse(rec, 0, &out)
		for _, e := range out.events {
			if e.RecordID == "" || e.BlockIndex < 0 || e.Kind == "" || e.Role == "" || !utf8.ValidString(e.Content) {
				t.Fatalf("malformed event %+v", e)
			}
		}
	})
}
