package sqlite

import (
	"encoding/hex"

	"github.com/ai-memory/ai-memory/ledger"
)

// storedID returns what to store as the event id of a row whose stored
// fields are row (content as stored, i.e. capped): nil when the id equals
// the one derived from those fields, which saves 32 bytes per event, else
// the full id (content cut to MaxContentBytes, or an id a segment carried
// that the fields do not reproduce).
func storedID(row ledger.EventInput, id []byte) []byte {
	if hex.EncodeToString(id) == ledger.DeriveEventID(row.SourceRecordID, row, row.Content) {
		return nil
	}
	return id
}

// storedOrDerivedID is the inverse of storedID: the stored id in hex, or
// the id derived from the row's fields when none is stored.
func storedOrDerivedID(id []byte, row ledger.EventInput) string {
	if len(id) == 0 {
		return ledger.DeriveEventID(row.SourceRecordID, row, row.Content)
	}
	return hex.EncodeToString(id)
}
