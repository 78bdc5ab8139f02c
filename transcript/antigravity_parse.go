package transcript

import (
	"strconv"
	"time"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// antigravityParser keeps the history.jsonl prompts of one conversation
// typed in its workspace. Lines of other conversations are passed over
// silently; an unlabelled line (an opening prompt logged before its
// conversation had an id) is this session's only when the opening window
// attributes it (see antigravityOpening).
type antigravityParser struct {
	id, workspace string
	opening       antigravityOpening
}

func (p antigravityParser) parse(rec []byte, off int64, out *sink) {
	var meta map[string]any
	switch conv := jsonx.Get(rec, "conversationId"); {
	case len(conv) == 0 && p.opening.attributes(rec, p.workspace):
		meta = map[string]any{"attribution": "inferred"}
	case str(conv) != p.id:
		return
	}
	switch typ := jsonx.Get(rec, "type"); {
	case len(typ) == 0:
	case str(typ) == "slash_command" || str(typ) == "shell":
		out.loss(off, "antigravity "+str(typ)+" entries are not imported")
		return
	default:
		out.loss(off, "antigravity history entry of type "+strconv.Quote(str(typ))+" skipped")
		return
	}
	ms, err := strconv.ParseInt(string(jsonx.Get(rec, "timestamp")), 10, 64)
	display := str(jsonx.Get(rec, "display"))
	switch {
	case err != nil || ms <= 0 || display == "":
		out.loss(off, "antigravity history entry without a prompt or time skipped")
		return
	case p.workspace == "" || !sameDir(str(jsonx.Get(rec, "workspace")), mustCanon(p.workspace)):
		out.loss(off, "antigravity prompt typed in another workspace not imported")
		return
	}
	e := Event{Kind: KindMessage, Role: RoleUser, Content: display, RecordID: lineID(rec),
		OccurredAt: time.UnixMilli(ms).UTC(), Metadata: meta}
	textEvent(out, off, e, nil)
}

// mustCanon is p resolved, or p itself when it cannot be.
func mustCanon(p string) string {
	if c, ok := canonical(p); ok {
		return c
	}
	return p
}
