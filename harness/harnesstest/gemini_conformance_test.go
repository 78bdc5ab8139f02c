package harnesstest

import (
	"testing"

	"github.com/ai-memory/ai-memory/transcript"
)

// Gemini rewrites a message by appending it again under the same id, and
// its reader re-emits what a later version of a message still holds under
// the same deterministic event ids (the ledger keeps one). A read resumed
// after a cut can therefore repeat an event of the read before it, so the
// cut-and-resume check compares the sets of events, not their counts.
func init() {
	storeChecks["gemini"] = storeLayoutChecks{partial: geminiPartial, rewrite: conformRewrite, pieces: geminiPieces}
}

func geminiPartial(t *testing.T, src transcript.Source, fake Fake) {
	conformPartialWith(t, src, fake, sameKeySet)
}

// sameKeySet reports whether a and b hold the same keys, ignoring repeats.
func sameKeySet(a, b []string) bool {
	set := func(xs []string) map[string]bool {
		m := map[string]bool{}
		for _, x := range xs {
			m[x] = true
		}
		return m
	}
	sa, sb := set(a), set(b)
	if len(sa) != len(sb) {
		return false
	}
	for k := range sa {
		if !sb[k] {
			return false
		}
	}
	return true
}

// geminiPieces compares what the ledger keeps: Gemini rewrites a message
// under its id when tool calls are attached, and the reader re-emits it, so
// a read in pieces sees some ids twice where one read sees them once.
func geminiPieces(t *testing.T, src transcript.Source, fake Fake) {
	conformPiecesWith(t, src, fake, firstOccurrences)
}
