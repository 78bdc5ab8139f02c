package ledger

// RebuildResult says what Rebuild restored.
type RebuildResult struct {
	Workstreams, Segments, Events int
	// Duplicates counts records whose event id was already restored.
	Duplicates int
	// Renumbered counts events whose sequence collided with another event
	// (left by a batch that crashed after its segment was written) and got
	// a new sequence after the workstream's last one.
	Renumbered int
	// Restored counts workstreams the ledger did not know that were
	// recreated (with their links, cursors and runs) from their state
	// snapshot; Renamed, those of them whose name was taken meanwhile.
	Restored, Renamed int
	// OrphanSegments counts segments of workstreams the ledger does not know
	// and that have no state snapshot (written before snapshots existed).
	OrphanSegments int
}
