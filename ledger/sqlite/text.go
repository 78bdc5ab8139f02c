package sqlite

import (
	sqldriver "database/sql/driver"
	"fmt"

	"github.com/klauspost/compress/s2"
	"modernc.org/sqlite"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
	"github.com/ai-memory/ai-memory/ledger/internal/parallel"
)

// Event text is stored compressed (schema 6, migrations/0006): the events
// table held the text once plus ~90 B per event, so the data home was 2.4x
// the text with the segments. Each text of at least minPackedText bytes is
// stored as an S2 block (a BLOB) when that saves at least a tenth, any other
// as TEXT. The column's storage class says which: a BLOB is always a packed
// text, a TEXT never is, so no marker byte is needed and rows written
// before schema 6 read unchanged.
//
// S2 rather than zstd (which the segments use): a search unpacks up to
// ledger.SearchCandidates rows to rank them, and rows are small. On ~500 B
// texts zstd's fastest level packs to 0.52 of the size but takes 4.6 us to
// unpack one (its per-frame entropy tables), 9 ms per 2,000 candidates; S2
// packs to 0.72 and unpacks in 0.8 us (internal/benchgen texts, 2 cores).
//
// Readers unpack in Go (textScanner) or, where SQLite itself needs the text
// (the FTS5 index reads its external content through the events_text view),
// through the SQL function ledger_text, registered for every connection.
const minPackedText = 128

// betterTextLimit: from 16 KiB on, S2's better mode clears ~576 KiB of match
// tables per text; it packed the long tool outputs of the bench-compare
// store at a fifth of the default mode's speed for a few percent of size.
const betterTextLimit = 16 << 10

// packText is the value the content column stores for s: a []byte S2 block
// or s itself.
func packText(s string) any {
	if len(s) < minPackedText {
		return s
	}
	enc := s2.EncodeBetter
	if len(s) >= betterTextLimit {
		enc = s2.Encode
	}
	b := enc(make([]byte, s2.MaxEncodedLen(len(s))), []byte(s))
	if len(b) > len(s)-len(s)/10 {
		return s
	}
	return b
}

// packParallelMin is the batch size from which packAll uses every core.
const packParallelMin = 32

// packAll packs the capped content of every record, on all cores for a
// large batch (packing is ~7 % of an import's CPU; the rows are then
// inserted in order on the writing goroutine, which it would otherwise
// hold up), or takes the form Prepare packed ahead (by event id).
func packAll(recs []durable.Record, ahead map[string]any) []any {
	out := make([]any, len(recs))
	parallel.Each(len(recs), packParallelMin, func(i int) {
		if v, ok := ahead[recs[i].EventID]; ok {
			out[i] = v
			return
		}
		out[i] = packText(ledger.CapContent(recs[i].Content))
	})
	return out
}

// unpackText is the text of a content column value.
func unpackText(v any) (string, error) {
	plain, packed, err := textOf(nil, v)
	if packed != nil {
		return string(packed), err
	}
	return plain, err
}

// textOf is the one reading of a content column value: a plain text
// (TEXT, or NULL as "") comes back as plain, a packed one (BLOB) unpacked
// into buf, reused when large enough, as packed.
func textOf(buf []byte, v any) (plain string, packed []byte, err error) {
	switch x := v.(type) {
	case string:
		return x, nil, nil
	case []byte:
		packed, err = unpackInto(buf, x)
		return "", packed, err
	case nil:
		return "", nil, nil
	}
	return "", nil, fmt.Errorf("stored event text has unexpected type %T", v)
}

// unpackInto unpacks a packed text into buf (reused when large enough).
// A length over the cap is damage, refused before it is allocated.
func unpackInto(buf, packed []byte) ([]byte, error) {
	n, err := s2.DecodedLen(packed)
	if err == nil && n > ledger.MaxContentBytes {
		err = fmt.Errorf("unpacks to %d bytes, over the %d a text is capped at", n, ledger.MaxContentBytes)
	}
	if err == nil {
		if n > cap(buf) {
			buf = make([]byte, n)
		}
		buf, err = s2.Decode(buf[:n], packed)
	}
	if err != nil {
		return buf[:0], fmt.Errorf("stored event text is damaged (%w); rebuild the ledger from its segments with: ai-memory ledger rebuild", err)
	}
	return buf, nil
}

// textScanner scans a content column into a string.
type textScanner struct{ dst *string }

func (t textScanner) Scan(v any) error {
	s, err := unpackText(v)
	*t.dst = s
	return err
}

func init() {
	sqlite.MustRegisterDeterministicScalarFunction("ledger_text", 1, func(_ *sqlite.FunctionContext, args []sqldriver.Value) (sqldriver.Value, error) {
		return unpackText(args[0])
	})
	// ledger_pack packs a TEXT value (migration 0006 packs the rows stored
	// before it); any other value is returned as it is.
	sqlite.MustRegisterDeterministicScalarFunction("ledger_pack", 1, func(_ *sqlite.FunctionContext, args []sqldriver.Value) (sqldriver.Value, error) {
		if s, ok := args[0].(string); ok {
			return packText(s), nil
		}
		return args[0], nil
	})
}
