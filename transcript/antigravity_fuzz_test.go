package transcript

import (
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// FuzzAntigravity feeds arbitrary bytes to the protobuf walker and valid
// JSON lines to the history parser: no panic, well-formed events.
func FuzzAntigravity(f *testing.F) {
	f.Add(agyMeta("file:///x"), []byte(`{"conversationId":"c","display":"hi","timestamp":1,"workspace":"/"}`))
	f.Add([]byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f}, []byte(`{"conversationId":"c","type":"shell"}`))
	f.Add(agyMeta("file:///x", time.UnixMilli(1000)), []byte(`{"display":"opening","timestamp":2000,"workspace":"/"}`))
	f.Fuzz(func(t *testing.T, msg, rec []byte) {
		if b, ok := protobufField(msg, 1); ok && len(b) > len(msg) {
			t.Fatalf("field longer than its message")
		}
		var created time.Time
		if ts, ok := protobufField(msg, 2); ok {
			created, _ = protobufTimestamp(ts)
		}
		if !jsonx.Valid(rec) {
			return
		}
		var out sink
		open := antigravityOpening{created: created, others: []time.Time{created.Add(3 * time.Second)}}
		antigravityParser{id: "c", workspace: "/", opening: open}.parse(rec, 0, &out)
		for _, e := range out.events {
			if e.Kind != KindMessage || e.Role != RoleUser || !utf8.ValidString(e.Content) || e.RecordID == "" {
				t.Fatalf("malformed event %+v", e)
			}
		}
	})
}
