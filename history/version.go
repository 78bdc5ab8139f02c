package history

import (
	"fmt"
	"hash/fnv"
)

// Version identifies what the session list of t shows, except the running
// duration of an active session: it changes when a session starts, gains
// events, learns its native id, ends, or gets its handoff, checkpoint or
// notes. A live page compares it to refresh its session list only when
// something changed.
func (t Timeline) Version() string {
	h := fnv.New64a()
	for _, s := range t.Sessions {
		confirmed := s.Handoff != nil && s.Handoff.Confirmed
		fmt.Fprintf(h, "%s|%s|%s|%d|%d|%v|%v|%d|%d\n", s.RunID, s.State, s.NativeSessionID, s.Events, s.LastSequence,
			s.Handoff != nil, confirmed, len(s.Checkpoint), len(s.Notes))
	}
	return fmt.Sprintf("%d-%016x", len(t.Sessions), h.Sum64())
}
