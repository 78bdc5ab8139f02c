// Package prep is the part of an Append that the ledger's backends can do
// ahead of it (ledger.Preparer): redaction, event ids and each backend's
// encoding of the text. It is internal to the ledger so that only a
// backend can make a prepared batch: no other package can hand Append a
// batch that claims to be redacted without being so.
package prep

import (
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
	"github.com/ai-memory/ai-memory/ledger/internal/parallel"
)

// Prepared is a batch prepared ahead of its Append: what
// durable.PrepareBatch returns and, by event id, the backend's encoding of
// each event (the stored or indexed form of its text).
type Prepared struct {
	Events  []durable.Pending
	Result  ledger.AppendResult
	Err     error
	Encoded map[string]any // nil: encode at Append
}

// sealed is what Batch.Prepared holds: the preparation and the backend
// that made it (another backend's encoding is not its own).
type sealed struct {
	owner string
	p     *Prepared
}

// parallelMin is the batch size from which encoding uses every core.
const parallelMin = 32

// Batch returns b prepared for the backend owner: its events prepared as
// durable.PrepareBatch does and each encoded with encode, on all cores.
func Batch(owner string, b ledger.Batch, encode func(durable.Pending) any) ledger.Batch {
	b.Prepared = sealed{owner, ahead(b.Events, encode)}
	return b
}

// Of is the preparation of b that owner made, or one made now without
// encoding (Append then encodes only the events not stored yet).
func Of(owner string, b ledger.Batch) *Prepared {
	if s, ok := b.Prepared.(sealed); ok && s.owner == owner && s.p != nil {
		return s.p
	}
	return ahead(b.Events, nil)
}

func ahead(in []ledger.EventInput, encode func(durable.Pending) any) *Prepared {
	p := &Prepared{}
	p.Events, p.Result, p.Err = durable.PrepareBatch(in)
	if p.Err != nil || encode == nil {
		return p
	}
	enc := make([]any, len(p.Events))
	parallel.Each(len(enc), parallelMin, func(i int) { enc[i] = encode(p.Events[i]) })
	p.Encoded = make(map[string]any, len(enc))
	for i, e := range p.Events {
		p.Encoded[e.ID] = enc[i]
	}
	return p
}
