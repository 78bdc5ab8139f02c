package prep

import (
	"testing"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
)

// TestOf: a backend takes only its own preparation; another backend's (its
// encoding is not this one's), a foreign value or none is prepared anew,
// unencoded, from the events.
func TestOf(t *testing.T) {
	b := ledger.Batch{Events: []ledger.EventInput{{Harness: "claude", Kind: ledger.KindMessage, Content: "hello"}}}
	mine := Batch("a", b, func(durable.Pending) any { return "encoded by a" })
	if p := Of("a", mine); len(p.Events) != 1 || p.Encoded[p.Events[0].ID] != "encoded by a" {
		t.Fatalf("own preparation = %+v; want it, encoded", p)
	}
	for name, other := range map[string]ledger.Batch{
		"another backend's": mine,
		"a foreign value":   {Events: b.Events, Prepared: "not a preparation"},
		"none":              b,
	} {
		if p := Of("b", other); p.Encoded != nil || len(p.Events) != 1 || p.Events[0].In.Content != "hello" {
			t.Errorf("%s: Of = %+v; want a fresh, unencoded preparation", name, p)
		}
	}
}
