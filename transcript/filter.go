package transcript

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// packetEchoWindow is how far into a text the packet marker is looked for.
// Tools that read a file back prefix each line (Claude's Read tool writes
// "     1→"), so the marker is rarely at byte 0 of a tool result.
const packetEchoWindow = 256

// isPacketEcho reports whether text is (or quotes, near its start) one of our
// own handoff packets, which must never re-enter the ledger.
func isPacketEcho(text string) bool {
	head := text
	if len(head) > packetEchoWindow+len(PacketMarkerPrefix) {
		head = head[:packetEchoWindow+len(PacketMarkerPrefix)]
	}
	return strings.Contains(head, PacketMarkerPrefix)
}

// injectedMarker returns the first marker text starts with (after leading
// whitespace), or "".
func injectedMarker(text string, markers []string) string {
	t := strings.TrimLeft(text, " \t\r\n")
	for _, m := range markers {
		if strings.HasPrefix(t, m) {
			return m
		}
	}
	return ""
}

// textEvent applies the rules every visible text goes through: blank text is
// dropped, packet echoes and injected context become losses, anything else
// is a message.
func textEvent(out *sink, off int64, e Event, markers []string) {
	if strings.TrimSpace(e.Content) == "" {
		return
	}
	if isPacketEcho(e.Content) {
		out.loss(off, "handoff packet echo skipped")
		return
	}
	if m := injectedMarker(e.Content, markers); m != "" {
		out.loss(off, "injected context skipped ("+m+")")
		return
	}
	out.event(e)
}

// toolResultEvent drops packet echoes read back through a tool; empty
// results are kept (an empty output is still the outcome of the call).
func toolResultEvent(out *sink, off int64, e Event) {
	if isPacketEcho(e.Content) {
		out.loss(off, "handoff packet echo skipped")
		return
	}
	out.event(e)
}

// lineID is the fallback record id: a digest of the raw line, stable across
// replays and across rewrites that keep the line intact (a byte offset would
// change when earlier lines change).
func lineID(rec []byte) string {
	sum := sha256.Sum256(rec)
	return "line-" + hex.EncodeToString(sum[:16])
}

// parseTime parses an RFC 3339 timestamp; the zero time when absent or bad.
func parseTime(raw []byte) time.Time {
	s, ok := jsonx.String(raw)
	if !ok {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// str returns the string value of raw, "" when it is not a string.
func str(raw []byte) string {
	s, _ := jsonx.String(raw)
	return s
}

// blockTexts joins the text of a string or of an array of {type:text} blocks
// (tool result bodies use both shapes). Non-text parts are counted.
func blockTexts(raw []byte) (text string, other int) {
	if s, ok := jsonx.String(raw); ok {
		return s, 0
	}
	var parts []string
	jsonx.Elems(raw, func(el []byte) bool {
		if t, ok := jsonx.String(jsonx.Get(el, "text")); ok {
			parts = append(parts, t)
		} else {
			other++
		}
		return true
	})
	return strings.Join(parts, "\n"), other
}

// toolCallContent renders a tool call as "name: <compact JSON args>".
func toolCallContent(name string, args []byte) string {
	if len(args) == 0 {
		return name + ": {}"
	}
	buf := make([]byte, 0, len(name)+2+len(args))
	buf = append(buf, name...)
	buf = append(buf, ':', ' ')
	return string(jsonx.Compact(buf, args))
}
