package transcript

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// antigravityOpenWindow bounds how far an unlabelled prompt's time may be
// from its conversation's creation (the anchor's rule: 5 s).
const antigravityOpenWindow = 5 * time.Second

// antigravityOpening attributes the opening prompt of a conversation,
// which agy logs to history.jsonl without a conversationId (the id does not
// exist yet). An unlabelled prompt typed in the conversation's workspace is
// its opening prompt when its time is within antigravityOpenWindow of the
// conversation's creation and strictly nearer to it than to the creation
// of any other conversation of that workspace: prompts and conversations
// started one after the other pair up, two started together pair with
// nothing. The event is marked {"attribution":"inferred"}. Without a
// recorded creation time nothing is attributed.
type antigravityOpening struct {
	created time.Time
	others  []time.Time // creations of the workspace's other conversations near created
}

// antigravityOpeningOf reads the window of session s: its creation time
// and those of the other conversations of its workspace that may compete
// (a database last written before the window opened was created before
// it too, so it is not opened).
func antigravityOpeningOf(s Session) antigravityOpening {
	_, created, err := antigravityMeta(s.Path)
	if err != nil || created.IsZero() || s.Cwd == "" {
		return antigravityOpening{}
	}
	o := antigravityOpening{created: created}
	dir := filepath.Dir(s.Path)
	ents, _ := os.ReadDir(dir)
	for i, e := range ents {
		id, isDB := strings.CutSuffix(e.Name(), ".db")
		if i >= maxScanFiles || !isDB || id == s.ID || !validID(id) {
			continue
		}
		other, ok := antigravityStat(Session{Path: filepath.Join(dir, e.Name())})
		if !ok || other.ModTime.Before(created.Add(-antigravityOpenWindow)) {
			continue
		}
		ws, c, err := antigravityMeta(other.Path)
		if err == nil && !c.IsZero() && sameDir(ws, mustCanon(s.Cwd)) {
			o.others = append(o.others, c)
		}
	}
	return o
}

// attributes reports whether the unlabelled history line rec is the
// opening prompt of the conversation (see antigravityOpening).
func (o antigravityOpening) attributes(rec []byte, workspace string) bool {
	ms, err := strconv.ParseInt(string(jsonx.Get(rec, "timestamp")), 10, 64)
	if o.created.IsZero() || err != nil || workspace == "" ||
		!sameDir(str(jsonx.Get(rec, "workspace")), mustCanon(workspace)) {
		return false
	}
	at := time.UnixMilli(ms)
	d := absDuration(at.Sub(o.created))
	if d > antigravityOpenWindow {
		return false
	}
	for _, c := range o.others {
		if absDuration(at.Sub(c)) <= d {
			return false
		}
	}
	return true
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
