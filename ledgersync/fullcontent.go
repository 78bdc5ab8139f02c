package ledgersync

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
)

// fullContent is e's whole redacted content. The ledger keeps content cut
// at ledger.MaxContentBytes; an event cut so would, copied as stored, get
// another id (ids hash the whole content) and be stored twice where the
// original also arrives. The segment the event was appended in (in the
// data home of src, home) holds it whole; without that segment the
// stored content is the best there is.
func fullContent(home string, e ledger.Event) string {
	if len(e.Content) < ledger.MaxContentBytes-len(ledger.TruncationMarker) || !strings.HasSuffix(e.Content, ledger.TruncationMarker) || e.SegmentPath == "" {
		return e.Content
	}
	data, err := durable.ReadSegmentFile(filepath.Join(home, filepath.FromSlash(e.SegmentPath)))
	if err != nil {
		return e.Content
	}
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if r, ok := durable.DecodeRecord(line); ok && r.EventID == e.EventID {
			return r.Content
		}
	}
	return e.Content
}
