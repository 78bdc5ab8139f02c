package ledger

import "sort"

// OrderKey is an event's display key in conversation order: a backend
// places late events with it, and SortConversation sorts by it.
type OrderKey struct{ Ord, At, Seq int64 }

// Less orders by Order, then by occurrence time when both are known, then
// by sequence.
func (a OrderKey) Less(b OrderKey) bool {
	if a.Ord != b.Ord {
		return a.Ord < b.Ord
	}
	if a.At != b.At && a.At != 0 && b.At != 0 {
		return a.At < b.At
	}
	return a.Seq < b.Seq
}

// SortConversation sorts events into conversation order: by Order, then
// by occurrence time within one Order (a late event and the event it is
// shown before), then by Sequence.
func SortConversation(evs []Event) {
	sort.SliceStable(evs, func(i, j int) bool { return keyOf(evs[i]).Less(keyOf(evs[j])) })
}

func keyOf(e Event) OrderKey {
	k := OrderKey{Ord: e.Order, Seq: e.Sequence}
	if k.Ord == 0 {
		k.Ord = e.Sequence
	}
	if !e.OccurredAt.IsZero() {
		k.At = e.OccurredAt.UnixMicro()
	}
	return k
}
