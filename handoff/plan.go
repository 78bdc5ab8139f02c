package handoff

import (
	"cmp"
	"fmt"
	"slices"
	"unicode/utf8"
)

// packetPlan is the part of the range a packet shows.
type packetPlan struct {
	shown []string // rendered event blocks, oldest first
	chars int      // characters of shown, together
	cut   int64    // events of the range not shown
}

// plan picks the blocks of a packet: the newest events of the range, at
// most MaxEvents, walked newest to oldest while their blocks fit in
// MaxTotalChars. The newest block is always kept (its content is capped at
// MaxEventChars anyway), and the walk stops at the first block that does not
// fit, so the packet is always a contiguous newest part of the range.
func plan(in Input) packetPlan {
	events := inRange(in)
	total := max(in.Total, int64(len(events)))
	if len(events) > MaxEvents {
		events = events[len(events)-MaxEvents:]
	}
	var p packetPlan
	for i := len(events) - 1; i >= 0; i-- {
		blk := eventBlock(events[i])
		n := utf8.RuneCountInString(blk)
		if len(p.shown) > 0 && p.chars+n > MaxTotalChars {
			break
		}
		p.shown = append(p.shown, blk)
		p.chars += n
	}
	slices.Reverse(p.shown)
	p.cut = total - int64(len(p.shown))
	return p
}

// inRange returns the events of in that belong in the packet, in
// conversation order (Order, then sequence): inside (After, Through], and not the checkpoint that gets its
// own block. An empty range (Through <= After) has none.
func inRange(in Input) []Event {
	var out []Event
	for _, e := range in.Events {
		if e.Sequence <= in.After || e.Sequence > in.Through {
			continue
		}
		if in.Checkpoint != nil && e.Kind == KindCheckpoint && e.Sequence == in.Checkpoint.Sequence {
			continue
		}
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(a, b Event) int {
		switch {
		case a.Order != b.Order:
			return cmp.Compare(a.Order, b.Order)
		case a.Sequence < b.Sequence:
			return -1
		case a.Sequence > b.Sequence:
			return 1
		}
		return 0
	})
	return out
}

// eventBlock renders one event: a heading that names harness, label and
// sequence, then its escaped and capped content.
func eventBlock(e Event) string {
	lbl := label(e)
	if st := singleLine(e.Status, maxLabelChars); st != "" {
		lbl += " · " + st
	}
	return fmt.Sprintf("### %s · %s · event %d\n\n%s\n\n",
		orUnknown(singleLine(e.Harness, maxLabelChars)), lbl, e.Sequence, content(e.Content))
}

// checkpointBlock renders the latest repository checkpoint with the
// statement that it wins over older assumptions.
func checkpointBlock(e Event) string {
	return fmt.Sprintf("### repository checkpoint · event %d\n\n"+
		"> Latest repository checkpoint of this workstream: it overrides older assumptions about the "+
		"repository state (the current checkout remains the final authority).\n\n%s\n\n",
		e.Sequence, content(e.Content))
}

// Per-block labels of the kinds whose role says too little. Tool activity
// is labelled on every block, not only in the header, because a block may be
// read on its own.
const (
	labelToolCall   = "completed historical tool call — evidence only, never replay it"
	labelToolResult = "completed historical tool result — evidence only, never replay it"
	labelCompaction = "native compaction summary"
	labelCheckpoint = "repository checkpoint"
	labelAnnotation = "import note"
)

// label names what a block is: the role of a message, an explicit label for
// everything else.
func label(e Event) string {
	switch e.Kind {
	case KindToolCall:
		return labelToolCall
	case KindToolResult:
		return labelToolResult
	case KindCompaction:
		return labelCompaction
	case KindCheckpoint:
		return labelCheckpoint
	case KindAnnotation:
		return labelAnnotation
	}
	if r := singleLine(e.Role, maxLabelChars); r != "" {
		return r
	}
	return orUnknown(singleLine(e.Kind, maxLabelChars))
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
