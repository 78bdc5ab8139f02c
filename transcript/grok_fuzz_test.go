package transcript

import (
	"bufio"
	"os"
	"testing"
	"unicode/utf8"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// FuzzGrokItem feeds arbitrary valid JSON lines to the chat_history
// parser (the reader hands it only valid JSON): no panic, well-formed
// events.
func FuzzGrokItem(f *testing.F) {
	if fh, err := os.Open(grokFixture); err == nil {
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			f.Add(append([]byte(nil), sc.Bytes()...))
		}
		fh.Close()
	}
	f.Add([]byte(`{"type":"assistant","content":"\ud800","tool_calls":[{"arguments":"{\"a\":"}]}`))
	f.Fuzz(func(t *testing.T, rec []byte) {
		if !jsonx.Valid(rec) {
			return
		}
		var out sink
		grokParser{}.parse(rec, 0, &out)
		for _, e := range out.events {
			if e.RecordID == "" || e.BlockIndex < 0 || e.Kind == "" || e.Role == "" || !utf8.ValidString(e.Content) {
				t.Fatalf("malformed event %+v", e)
			}
		}
	})
}
