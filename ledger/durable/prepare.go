package durable

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/internal/parallel"
)

// Pending is an event ready to store.
type Pending struct {
	In    ledger.EventInput // sanitized, full content
	ID    string            // hex event id
	IDRaw []byte
	// Meta is In.Metadata as JSON, nil when there is none.
	Meta []byte
	// FromFields is set when ID was computed from In (not read from a
	// segment), so a backend can skip re-hashing to prove it derivable.
	FromFields bool
	// Ord is the sequence this late event is shown before (0: its own).
	Ord int64
}

// PrepareBatch validates, redacts and ids the events, dropping blank ones
// (counted in Dropped) and duplicates inside the batch (in Skipped). Every
// backend prepares a batch this way, so the same input stores the same
// events with the same ids everywhere.
func PrepareBatch(in []ledger.EventInput) ([]Pending, ledger.AppendResult, error) {
	var res ledger.AppendResult
	seen := make(map[string]bool, len(in))
	out := make([]Pending, 0, len(in))
	for _, r := range prepareAll(in) {
		switch {
		case r.err != nil:
			return nil, res, r.err
		case r.blank:
			res.Dropped++
		case seen[r.p.ID]:
			res.Skipped++
		default:
			seen[r.p.ID] = true
			out = append(out, r.p)
		}
	}
	return out, res, nil
}

// prepared is one event of a batch after prepareOne.
type prepared struct {
	p     Pending
	blank bool // nothing left to store once redacted
	err   error
}

// prepareParallelMin is the batch size from which prepareAll spreads the
// events over the cores: redaction and hashing are most of an append's CPU
// outside SQLite, and the events are independent.
const prepareParallelMin = 32

// prepareAll runs prepareOne over every event, on all cores for a large
// batch; the result is in input order whatever the schedule.
func prepareAll(in []ledger.EventInput) []prepared {
	out := make([]prepared, len(in))
	parallel.Each(len(in), prepareParallelMin, func(i int) { out[i] = prepareOne(i, in[i]) })
	return out
}

// prepareOne validates, redacts and ids event i of a batch.
func prepareOne(i int, e ledger.EventInput) prepared {
	if strings.TrimSpace(e.Harness) == "" || !e.Kind.Valid() {
		return prepared{err: fmt.Errorf("append: event %d has an empty harness or unknown kind %q", i, e.Kind)}
	}
	s, err := ledger.Sanitize(e)
	if err != nil {
		return prepared{err: fmt.Errorf("append: event %d: %w", i, err)}
	}
	if strings.TrimSpace(s.Content) == "" {
		return prepared{blank: true}
	}
	p, err := NewPending(s)
	if err != nil {
		return prepared{err: fmt.Errorf("append: event %d: %w", i, err)}
	}
	return prepared{p: p}
}

// NewPending ids a sanitized event and encodes its metadata.
func NewPending(s ledger.EventInput) (Pending, error) {
	p := Pending{In: s, ID: ledger.DeriveEventID(s.SourceRecordID, s, s.Content), FromFields: true}
	p.IDRaw, _ = hex.DecodeString(p.ID)
	if s.Metadata != nil {
		b, err := json.Marshal(s.Metadata)
		if err != nil {
			return p, fmt.Errorf("encode metadata: %w", err)
		}
		p.Meta = b
	}
	return p, nil
}

// FromRecord is the pending form of a segment record being replayed: its
// id is the segment's, not recomputed (FromFields false).
func FromRecord(r Record) (Pending, error) {
	p, err := NewPending(ledger.EventInput{Metadata: r.Metadata})
	if err != nil {
		return p, err
	}
	p.ID, p.FromFields = r.EventID, false
	p.IDRaw, _ = hex.DecodeString(p.ID)
	return p, nil
}
